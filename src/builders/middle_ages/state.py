"""The state of a game of The Builders: Middle Ages: legal actions and their effects (the hot path).

Rules references are to ``the-builders/rules.md``. Internally the decks are lists with their top card
at the end (so a draw is ``pop()``); the rows keep their slots, a refill goes to the freed slot, and a
slot disappears when its deck is empty.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import itemgetter
from typing import Any

from builders.core.errors import IllegalAction, InvalidPosition, shown
from builders.core.messages import msg
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, public_history
from builders.middle_ages import rules
from builders.middle_ages.cards import (
    BUILDING_DECK,
    COST,
    GUARD,
    IDS,
    INDEX,
    MACHINES,
    NUM_CARDS,
    PROD,
    REQ,
    REWARD,
    VP,
    unpack,
)
from builders.middle_ages.codes import (
    ACTION_PRICE,
    BUY,
    COIN_GAIN,
    COINS,
    END,
    END_TRIGGER_VP,
    FREE_ACTIONS,
    OPEN,
    RECRUIT,
    ROW_SIZE,
    SEND,
    START_COINS,
    is_action_code,
)
from builders.middle_ages.notation import action_text, bad_draw, parse
from builders.middle_ages.scoring import final_result

_CHANCE = tuple(Chance(card_id) for card_id in IDS)
_COIN_ACTIONS = ((), (COINS + 1,), (COINS + 1, COINS + 2), (COINS + 1, COINS + 2, COINS + 3))
_MACHINE_SET = frozenset(MACHINES)
#: legal_actions' first codes, by (coins >= ACTION_PRICE, actions left up to 3)
_HEAD = (tuple((*_COIN_ACTIONS[k],) for k in range(4)), tuple((BUY, *_COIN_ACTIONS[k]) for k in range(4)))
#: per site, per worker: the code of sending the worker there (made once: no new int per legal action)
_SEND_CODES = tuple(tuple(SEND + (site << 7) + w for w in range(NUM_CARDS)) for site in range(NUM_CARDS))
_SEND_CODES_OF = _SEND_CODES.__getitem__
_PICK = tuple(itemgetter(w) for w in range(NUM_CARDS))
#: per coin amount below the dearest worker (5): the test "this worker costs no more than that"
_AFFORD = tuple(frozenset(w for w in range(NUM_CARDS) if COST[w] <= c).__contains__ for c in range(5))


class MiddleAgesState(GameState[int]):
    """A position of The Builders: Middle Ages (cards are indices into ``cards.IDS``, actions ints)."""

    GAME = "middle-ages"

    __slots__ = (
        "num_players",
        "history",
        "forced",
        "rng",
        "_setup",
        "start",
        "cur",
        "actions",
        "over",
        "final_round",
        "turn",
        "coins",
        "crew",
        "sites",
        "placed",
        "progress",
        "sent",
        "touched",
        "done",
        "vp",
        "unrecruited",
        "brow",
        "bdeck",
        "wrow",
        "wdeck",
    )
    # placed: site -> tuple of the workers on it (a tuple, so that copy() copies the dict only);
    # touched: the sites that got a worker this turn (their ``sent`` count is not 0), reset by end;
    # unrecruited: the packed production of the workers in the worker row and deck (for the end test).
    _setup: Mapping[str, Any]
    start: int
    cur: int
    actions: int
    over: bool
    final_round: bool
    turn: int
    coins: list[int]
    crew: list[list[int]]
    sites: list[list[int]]
    placed: dict[int, tuple[int, ...]]
    progress: list[int]
    sent: list[int]
    touched: list[int]
    done: list[list[int]]
    vp: list[int]
    unrecruited: int
    brow: list[int]
    bdeck: list[int]
    wrow: list[int]
    wdeck: list[int]

    def __init__(self, setup: Mapping[str, Any]) -> None:
        """The initial state of a checked setup (use ``MiddleAges().new_state`` for unchecked input)."""
        n = setup["players"]
        self._setup = setup
        self.num_players = n
        self.history = []
        self.forced = []
        self.rng = Rng(setup.get("seed", 0))
        self.start = setup["start_player"]
        self.cur = self.start
        self.actions = FREE_ACTIONS
        self.over = False
        self.final_round = False
        self.turn = 0
        self.coins = [START_COINS] * n
        self.crew = [[INDEX[a]] for a in setup["apprentices"]]
        self.sites = [[] for _ in range(n)]
        self.placed = {}
        self.progress = [0] * NUM_CARDS
        self.sent = [0] * NUM_CARDS
        self.touched = []
        self.done = [[] for _ in range(n)]
        self.vp = [0] * n
        bdeck = [INDEX[c] for c in setup["buildings"]]
        wdeck = [INDEX[c] for c in setup["workers"]]
        # the rows hold action codes (OPEN + card, RECRUIT + card): legal_actions copies them as they are
        self.brow = [OPEN + c for c in bdeck[:ROW_SIZE]]
        self.wrow = [RECRUIT + c for c in wdeck[:ROW_SIZE]]
        self.bdeck = bdeck[ROW_SIZE:][::-1]
        self.wdeck = wdeck[ROW_SIZE:][::-1]
        self.unrecruited = sum(PROD[c] for c in wdeck)

    # -- the decision ------------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return self.cur

    def is_over(self) -> bool:
        return self.over

    def legal_actions(self) -> list[int]:
        if self.over:
            return []
        left = self.actions
        p = self.cur
        coins = self.coins[p]
        if not left:
            return [END, BUY] if coins >= ACTION_PRICE else [END]
        out = [*_HEAD[coins >= ACTION_PRICE][left if left < 3 else 3], *self.brow, *self.wrow]
        crew = self.crew[p]
        if crew:
            sites = self.sites[p]
            if sites:
                # rules.md "Send a worker": the k-th worker sent to a site this turn costs k actions
                ready = crew if coins >= 5 else [*filter(_AFFORD[coins], crew)]
                if ready:
                    # itemgetter picks the codes of the ready workers out of a site's row of codes in C
                    if self.touched:
                        sent = self.sent
                        sites = [s for s in sites if sent[s] < left]
                    if len(ready) == 1:
                        out += map(_PICK[ready[0]], map(_SEND_CODES_OF, sites))
                    else:
                        pick = itemgetter(*ready)
                        for s in sites:
                            out += pick(_SEND_CODES[s])
        return out

    def is_legal(self, action: Any) -> bool:
        return rules.why_illegal(self, action) is None

    def apply(self, action: Any) -> None:
        if self.over or type(action) is not int:
            self._refuse(action)
        p = self.cur
        if action < OPEN:
            if action > BUY:
                # rules.md "Take coins": 1, 3 or 6 coins for 1, 2 or 3 actions.
                k = action - COINS
                if k > 3 or k > self.actions:
                    self._refuse(action)
                self.actions -= k
                self.coins[p] += COIN_GAIN[k]
                self.history.append(action)
                return
            if action == END:
                if self.actions:
                    self._refuse(action)
                self.history.append(END)
                touched = self.touched
                if touched:
                    sent = self.sent
                    for s in touched:
                        sent[s] = 0
                    touched.clear()
                # rules.md "End of the game": 17 VP at the end of a turn finishes the round; the game
                # also ends after a round in which no VP can be gained any more.
                if self.vp[p] >= END_TRIGGER_VP:
                    self.final_round = True
                self.turn += 1
                p += 1
                if p == self.num_players:
                    p = 0
                if p == self.start and (self.final_round or not (self.brow or self.bdeck or rules.can_gain_vp(self))):
                    self.over = True
                self.cur = p
                self.actions = FREE_ACTIONS
                return
            if action != BUY:
                self._refuse(action)
            # rules.md "A turn": more actions at 5 coins each, at any time in the turn.
            if self.coins[p] < ACTION_PRICE:
                self._refuse(action)
            self.coins[p] -= ACTION_PRICE
            self.actions += 1
            self.history.append(BUY)
            return
        if action >= SEND:
            w = action & 127
            s = (action >> 7) - (SEND >> 7)
            crew = self.crew[p]
            if w not in crew or s not in self.sites[p]:
                self._refuse(action)
            sent = self.sent
            need = sent[s] + 1
            coins = self.coins[p] - COST[w]
            if need > self.actions or coins < 0:
                self._refuse(action)
            # rules.md "Send a worker": pay the worker's cost; the k-th worker sent to one site in a
            # turn costs k actions.
            self.actions -= need
            sent[s] = need
            if need == 1:
                self.touched.append(s)
            crew.remove(w)
            progress = self.progress[s] + PROD[w]
            self.history.append(action)
            if ((progress | GUARD) - REQ[s]) & GUARD == GUARD:
                # rules.md "Completing a site": workers back at once, coins paid, VP counted; a
                # machine joins the crew.
                crew += self.placed.pop(s)
                crew.append(w)
                self.sites[p].remove(s)
                self.done[p].append(s)
                self.vp[p] += VP[s]
                coins += REWARD[s]
                self.progress[s] = 0
                sent[s] = 0
                if s in _MACHINE_SET:
                    crew.append(s)
            else:
                self.placed[s] += (w,)
                self.progress[s] = progress
            self.coins[p] = coins
            return
        # open a site or recruit a worker; the rows hold action codes
        if action >= RECRUIT:
            row = self.wrow
            deck = self.wdeck
        else:
            row = self.brow
            deck = self.bdeck
        if action not in row or not self.actions:
            self._refuse(action)
        forced = self._forced_card(deck) if self.forced and deck else -1
        self.actions -= 1
        if action >= RECRUIT:
            base = RECRUIT
            self.crew[p].append(action - RECRUIT)
            self.unrecruited -= PROD[action - RECRUIT]
        else:
            base = OPEN
            c = action - OPEN
            self.sites[p].append(c)
            self.placed[c] = ()
        self.history.append(action)
        # rules.md "Open a site" / "Recruit a worker": refill the row at once; "Running out of
        # cards": an empty deck leaves the row short.
        if deck:
            if forced >= 0:
                deck.remove(forced)
                new = forced
            else:
                new = deck.pop()
            row[row.index(action)] = base + new
            self.history.append(_CHANCE[new])
        else:
            row.remove(action)

    def _forced_card(self, deck: list[int]) -> int:
        name = self.forced[0]
        index = INDEX.get(name, -1)
        if index not in deck:
            raise bad_draw(name, building=deck is self.bdeck)
        self.forced.pop(0)
        return index

    def _refuse(self, action: Any) -> None:
        reason = rules.why_illegal(self, action)
        raise IllegalAction(reason or msg("{action} cannot be played now", action=shown(action)))

    # -- copies ------------------------------------------------------------------------------------
    def copy(self) -> MiddleAgesState:
        other = MiddleAgesState.__new__(MiddleAgesState)
        other._setup = self._setup
        other.num_players = self.num_players
        other.history = self.history[:]
        other.forced = self.forced[:]
        other.rng = self.rng.copy()
        other.start = self.start
        other.cur = self.cur
        other.actions = self.actions
        other.over = self.over
        other.final_round = self.final_round
        other.turn = self.turn
        other.coins = self.coins[:]
        other.crew = [*map(list.copy, self.crew)]
        other.sites = [*map(list.copy, self.sites)]
        other.placed = self.placed.copy()
        other.progress = self.progress[:]
        other.sent = self.sent[:]
        other.touched = self.touched[:]
        other.done = [*map(list.copy, self.done)]
        other.vp = self.vp[:]
        other.brow = self.brow[:]
        other.bdeck = self.bdeck[:]
        other.wrow = self.wrow[:]
        other.wdeck = self.wdeck[:]
        other.unrecruited = self.unrecruited
        return other

    # -- results -----------------------------------------------------------------------------------
    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        return final_result(self)

    # -- notation ----------------------------------------------------------------------------------
    def action_to_string(self, action: Any) -> str:
        if not is_action_code(action):
            raise IllegalAction(msg("{action} is not an action of The Builders: Middle Ages", action=shown(action)))
        return action_text(action)

    def parse_action(self, text: str) -> int:
        action = parse(text)
        reason = rules.why_illegal(self, action)
        if reason is not None:
            raise IllegalAction(reason)
        return action

    # -- information -------------------------------------------------------------------------------
    @property
    def setup(self) -> dict[str, Any]:
        s = self._setup
        out = {k: (v[:] if isinstance(v, list) else v) for k, v in s.items()}
        return out

    def to_json(self) -> dict[str, Any]:
        """The full position (rules.md "Information": nothing is hidden here)."""
        return self._json(None, True)

    def _json(self, seat: int | None, whole: bool) -> dict[str, Any]:
        """The position as JSON: whole (``to_json``), or what ``seat`` may know (``observation``): the
        decks only as their sizes and the building deck's top card. An observation is made of what
        its seat may see, never by blanking the rest afterwards."""
        players = []
        for p in range(self.num_players):
            sites = []
            for s in self.sites[p]:
                sites.append(
                    {
                        "card": IDS[s],
                        "workers": [IDS[w] for w in self.placed[s]],
                        "progress": unpack(self.progress[s]),
                        "requirement": unpack(REQ[s]),
                        "sent_this_turn": self.sent[s],
                    }
                )
            done = self.done[p]
            players.append(
                {
                    "seat": p,
                    "coins": self.coins[p],
                    "crew": [IDS[w] for w in self.crew[p]],
                    "sites": sites,
                    "completed": [IDS[c] for c in done],
                    "vp": self.vp[p],
                }
            )
        bdeck, wdeck = self.bdeck, self.wdeck
        out = {
            "game": self.GAME,
            "players": players,
            "building_row": [IDS[c - OPEN] for c in self.brow],
            **({"building_deck": [IDS[c] for c in reversed(bdeck)]} if whole else {}),
            "worker_row": [IDS[c - RECRUIT] for c in self.wrow],
            **({"worker_deck": [IDS[c] for c in reversed(wdeck)]} if whole else {}),
            "start_player": self.start,
            "current_player": self.cur,
            "actions_left": self.actions,
            "turn": self.turn,
            "round": self.turn // self.num_players,
            "final_round": self.final_round,
            "over": self.over,
        }
        if not whole:
            out["seat"] = seat
            out["building_deck_size"] = len(bdeck)
            out["building_deck_top"] = IDS[bdeck[-1]] if bdeck else None
            out["worker_deck_size"] = len(wdeck)
        return out

    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know: everything but the order of both decks and the
        top worker card (rules.md "Information"). The top card of the building deck is public."""
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be from 0 to {self.num_players - 1} or None, not {seat!r}")
        return self._json(seat, False)

    def resample_hidden(self, seat: int, rng: Rng) -> MiddleAgesState:
        """A copy with the hidden deck orders drawn anew: the building deck below its visible top card,
        and the whole worker deck. Every seat knows the same, so ``seat`` changes nothing.

        The result depends only on what is visible and on ``rng``: the hidden cards are put in sorted
        order before they are shuffled, and pending forced draws and the
        drawn cards of the history (which would show what was hidden) are dropped."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be from 0 to {self.num_players - 1}, not {seat!r}")
        other = self.copy()
        if other.bdeck:
            below = sorted(other.bdeck[:-1])
            rng.shuffle(below)
            other.bdeck[:-1] = below
        workers = sorted(other.wdeck)
        rng.shuffle(workers)
        other.wdeck = workers
        other.forced = []
        other.history = public_history(other.history)
        return other

    # -- positions ---------------------------------------------------------------------------------
    @classmethod
    def from_json(cls, position: Mapping[str, Any], setup: Mapping[str, Any]) -> MiddleAgesState:
        """The state of a position written by :meth:`to_json` (its history starts empty).

        ``setup`` is the checked setup the game started from (kept for records). Raises InvalidPosition
        saying what is inconsistent.
        """
        return _state_from_json(cls, position, setup)

    def __repr__(self) -> str:
        return (
            f"<MiddleAgesState {self.num_players} players, turn {self.turn}, seat {self.cur} "
            f"with {self.actions} actions{', over' if self.over else ''}>"
        )


def _card_list(value: Any, what: str) -> list[int]:
    if not isinstance(value, list):
        raise InvalidPosition(f"{what} must be a list of card ids")
    out = []
    for item in value:
        index = INDEX.get(item) if isinstance(item, str) else None
        if index is None:
            raise InvalidPosition(f"unknown card id {shown(item)} in {what}")
        out.append(index)
    return out


def _int(value: Any, what: str, low: int = 0, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise InvalidPosition(f"{what} must be a whole number {bound}, not {shown(value)}")
    return value


def _state_from_json(cls: type[MiddleAgesState], pos: Mapping[str, Any], setup: Mapping[str, Any]) -> MiddleAgesState:
    if not isinstance(pos, Mapping):
        raise InvalidPosition("a position is a JSON object as written by to_json")
    if pos.get("game", cls.GAME) != cls.GAME:
        raise InvalidPosition(f"this is a position of {shown(pos.get('game'))}, not of {cls.GAME!r}")
    state = cls(setup)
    n = state.num_players
    try:
        players = pos["players"]
        if not isinstance(players, list) or len(players) != n:
            raise InvalidPosition(f"players must list the {n} seats of the setup")
        where: dict[int, str] = {}

        def put(card: int, place: str) -> None:
            if card in where:
                raise InvalidPosition(f"{IDS[card]} is both in {where[card]} and in {place}")
            where[card] = place

        brow = _card_list(pos["building_row"], "building_row")
        bdeck = _card_list(pos["building_deck"], "building_deck")
        wrow = _card_list(pos["worker_row"], "worker_row")
        wdeck = _card_list(pos["worker_deck"], "worker_deck")
        for name, cards, kinds in (
            ("building_row", brow, BUILDING_DECK),
            ("building_deck", bdeck, BUILDING_DECK),
            ("worker_row", wrow, range(42)),
            ("worker_deck", wdeck, range(42)),
        ):
            for c in cards:
                if c not in kinds:
                    raise InvalidPosition(f"{IDS[c]} cannot be in {name}")
                put(c, name)
        for name, row, deck in (("building_row", brow, bdeck), ("worker_row", wrow, wdeck)):
            if len(row) > ROW_SIZE or (len(row) < ROW_SIZE and deck):
                raise InvalidPosition(f"{name} must hold 5 cards while its deck is not empty, and never more")
        state.brow = [OPEN + c for c in brow]
        state.wrow = [RECRUIT + c for c in wrow]
        state.bdeck = bdeck[::-1]
        state.wdeck = wdeck[::-1]
        state.unrecruited = sum(PROD[c] for c in wrow + wdeck)
        cur = _int(pos["current_player"], "current_player", 0, n - 1)
        start = _int(pos["start_player"], "start_player", 0, n - 1)
        if start != state.start:
            raise InvalidPosition(f"start_player is {start} but the setup says {state.start}")
        turn = _int(pos["turn"], "turn")
        if (start + turn) % n != cur:
            raise InvalidPosition(
                f"after {turn} turns from seat {start} it is seat {(start + turn) % n}'s turn, not seat {cur}'s"
            )
        for p, player in enumerate(players):
            me = f"seat {p}"
            state.coins[p] = _int(player["coins"], f"{me}'s coins")
            done = _card_list(player["completed"], f"{me}'s completed cards")
            for c in done:
                if c not in BUILDING_DECK:
                    raise InvalidPosition(f"{IDS[c]} is a worker; it cannot be completed")
                put(c, f"{me}'s completed cards")
            state.done[p] = done
            state.vp[p] = sum(VP[c] for c in done)
            if "vp" in player and player["vp"] != state.vp[p]:
                raise InvalidPosition(f"{me}'s completed cards hold {state.vp[p]} VP, not {shown(player['vp'])}")

            def worker(c: int, place: str, p: int = p, done: list[int] = done) -> None:
                if c in MACHINES and c in done:
                    key = -1 - c  # a completed machine is both a completed card and a worker
                    if key in where:
                        raise InvalidPosition(f"{IDS[c]} works in two places")
                    where[key] = place
                    return
                if c >= 42:
                    raise InvalidPosition(f"{IDS[c]} in {place} is not a worker nor a completed machine of {me}")
                put(c, place)

            crew = _card_list(player["crew"], f"{me}'s crew")
            for c in crew:
                worker(c, f"{me}'s crew")
            state.crew[p] = crew
            sites = []
            if not isinstance(player["sites"], list):
                raise InvalidPosition(f"{me}'s sites must be a list")
            for site in player["sites"]:
                s = _card_list([site["card"]], f"{me}'s sites")[0]
                if s not in BUILDING_DECK:
                    raise InvalidPosition(f"{IDS[s]} is a worker, not a site")
                put(s, f"{me}'s sites")
                on = _card_list(site["workers"], f"the workers on {IDS[s]}")
                for c in on:
                    worker(c, f"site {IDS[s]}")
                progress = sum(PROD[c] for c in on)
                if "progress" in site and site["progress"] != unpack(progress):
                    raise InvalidPosition(
                        f"the workers on {IDS[s]} produce {unpack(progress)}, not {shown(site['progress'])}"
                    )
                if ((progress | GUARD) - REQ[s]) & GUARD == GUARD:
                    raise InvalidPosition(f"{IDS[s]} would be complete with the workers on it")
                sent = _int(site.get("sent_this_turn", 0), f"sent_this_turn of {IDS[s]}")
                if sent and p != cur:
                    raise InvalidPosition(f"seat {p} is not playing, so nothing was sent to {IDS[s]} this turn")
                state.placed[s] = tuple(on)
                state.progress[s] = progress
                state.sent[s] = sent
                if sent:
                    state.touched.append(s)
                sites.append(s)
            state.sites[p] = sites
        for c in MACHINES:
            if any(c in d for d in state.done) and -1 - c not in where:
                raise InvalidPosition(f"the completed machine {IDS[c]} must be in a crew or on a site")
        missing = [IDS[c] for c in range(NUM_CARDS) if c not in where]
        if missing:
            raise InvalidPosition(f"cards missing from the position: {', '.join(missing)}")
        state.cur = cur
        state.turn = turn
        state.actions = _int(pos["actions_left"], "actions_left")
        final_round = pos.get("final_round", False)
        over = pos.get("over", False)
        if not isinstance(final_round, bool) or not isinstance(over, bool):
            raise InvalidPosition("final_round and over must be true or false")
        state.final_round = final_round
        state.over = over
    except KeyError as e:
        raise InvalidPosition(f"the position has no {shown(e.args[0])}") from None
    except (TypeError, AttributeError) as e:
        raise InvalidPosition(f"the position is malformed: {e}") from None
    return state
