"""The evaluation of The Builders: Middle Ages positions (see :mod:`builders.ai.evaluate`): per-seat
estimates of final VP from the public part of a position only.

The weights were set by medium-vs-medium matches (``benchmarks/ai_strength.py --which
ma-medium-medium``: no seat at 2 VP or less, the scores of the worst seats) and short hard-vs-medium
matches (docs/ai.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from builders.ai.kit import numbers_of, settings_with
from builders.middle_ages.cards import REWARD, VP
from builders.middle_ages.rules import ACTION_PRICE, FREE_ACTIONS

END_TRIGGER_VP = 17  # rules.md "End of the game"


@dataclass(frozen=True)
class MiddleAgesSettings:
    """The weights of the evaluation (today's values the defaults): an agent's own are an object of
    this class (``weights``), passed to ``values``; nothing reads them from the module."""

    MA_COIN: float = 0.12  # VP per coin (coins pay the workers; 10 coins are 1 VP at the end)
    MA_ACTION: float = 0.25  # VP per action left in the turn (3 actions buy 6 coins)
    MA_STAFFED: float = 0.40  # share of a site's value for holding it open with the free crew to finish it
    MA_STAFFED_PROGRESS: float = 0.45  # more share of a staffed site's value earned by its covered requirement
    MA_OPEN: float = 0.02  # share of a site's value for holding it open without the crew to finish it
    MA_PROGRESS: float = 0.40  # share of such a site's value earned by its covered requirement
    MA_ROW: float = 0.5  # a unit the worker row could give the seat to move counts this much of a crew unit
    MA_SPARE_UNIT: float = 0.05  # VP per unit of free-crew production that no open site needs
    MA_MACHINE_UNIT: float = 0.2  # VP per unit of production of a machine (it joins the crew at no wage)
    MA_SHORT: float = 0.125  # VP per coin of wages the staffed sites need beyond the seat's coins
    MA_HORIZON: float = 2.5  # actions of the seat's queue of sites that halve a site's share (0: none)
    MA_UNIT_ACTIONS: float = 1 / 3.6  # actions per needed unit for a send (a worker gives 3.6 units on average)
    MA_PACE: float = 2.0  # VP a turn of the leader, to guess the turns left before someone reaches 17
    MA_LATE_ROUND: int = 30  # from this round on, a game still going on loses value round by round ...
    MA_LATE_DECAY: float = 0.8  # ... by this factor a round (bots' games end by round 25 or so)
    MA_LATE_COIN: float = 0.0  # ... and a coin is worth this much, not MA_COIN, in a game still going on
    #: count what a seat that has its last turn still to play can finish in it (see ``last_turn_gain``)
    MA_LAST_TURN: bool = True


#: the evaluation's own weights
DEFAULT = MiddleAgesSettings()
#: the names of the weights (``weights`` takes overrides of any of them)
WEIGHT_NAMES = tuple(f.name for f in fields(MiddleAgesSettings))
#: the weights that must be above 0 (the others at least 0)
_POSITIVE = ("MA_PACE", "MA_LATE_ROUND")


def _ma_tables(s: MiddleAgesSettings):
    from builders.middle_ages.cards import BUILDING_DECK, COST, MACHINES, NUM_CARDS, PROD, REQ, REWARD, VP, unpack

    req = [unpack(REQ[c]) for c in range(NUM_CARDS)]
    prod = [unpack(PROD[c]) for c in range(NUM_CARDS)]
    site_value = [0.0] * NUM_CARDS
    for c in BUILDING_DECK:
        site_value[c] = VP[c] + s.MA_COIN * REWARD[c] + (s.MA_MACHINE_UNIT * sum(prod[c]) if c in MACHINES else 0.0)
    total = [max(1, sum(r)) for r in req]
    wage = [COST[c] for c in range(NUM_CARDS)]
    return req, prod, site_value, total, wage


#: (MA_COIN, MA_MACHINE_UNIT) -> the card tables valued with them (the few an agent's weights make)
_TABLES: dict[tuple[float, float], tuple] = {}


def _tables(s: MiddleAgesSettings) -> tuple:
    key = (s.MA_COIN, s.MA_MACHINE_UNIT)
    found = _TABLES.get(key)
    if found is None:
        if len(_TABLES) >= 16:
            _TABLES.clear()
        found = _TABLES[key] = _ma_tables(s)
    return found


def weights(overrides: Mapping[str, float] | MiddleAgesSettings | None = None) -> MiddleAgesSettings:
    """The evaluation's weights (``DEFAULT``) with ``overrides`` (a name of ``WEIGHT_NAMES`` -> its
    value) instead; a settings object is returned as it is. Raises ValueError for another name or a
    value that is not a number of at least 0 (``MA_LAST_TURN``: true or false).

    >>> weights({"MA_HORIZON": 4.5}).MA_HORIZON, weights().MA_HORIZON == DEFAULT.MA_HORIZON
    (4.5, True)
    """
    return settings_with(DEFAULT, overrides, "The Builders' evaluation's", _check)


def _check(name: str, value) -> None:
    if name == "MA_LAST_TURN":
        if not isinstance(value, bool):
            raise ValueError(f"weight MA_LAST_TURN must be true or false, not {value!r}")
    elif isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"weight {name} must be a number of at least 0, not {value!r}")
    elif name in _POSITIVE and not value > 0:
        raise ValueError(f"weight {name} must be a number above 0, not {value!r}")


#: (a site's progress << 8 | the site) -> ``_site_need`` of it: the few states sites go through
_SITE_NEEDS: dict[int, tuple[int, int, int, int, int, int]] = {}


def _site_need(s: int, g: int, r: list[int]) -> tuple[int, int, int, int, int, int]:
    """What site ``s`` with progress ``g`` (``rules``: one byte a kind) still needs of its
    requirement ``r``: (the units in all, ``s``, the units of each kind)."""
    n0 = r[0] - min(g & 0xFF, r[0])
    n1 = r[1] - min((g >> 8) & 0xFF, r[1])
    n2 = r[2] - min((g >> 16) & 0xFF, r[2])
    n3 = r[3] - min((g >> 24) & 0xFF, r[3])
    return (n0 + n1 + n2 + n3, s, n0, n1, n2, n3)


def finished_seats(st) -> list[bool]:
    """Per seat, whether its score can no longer change: the game is over, or the round is the last
    one (a seat reached 17 VP: rules.md "End of the game") and the seat has played its turn in it
    (the game ends before the start seat's next turn)."""
    n = st.num_players
    if st.over:
        return [True] * n
    cur = st.cur
    if not (st.final_round or st.vp[cur] >= END_TRIGGER_VP):
        return [False] * n
    start = st.start
    pos = (cur - start) % n
    return [q != cur and (q - start) % n < pos for q in range(n)]


def end_triggered(st) -> bool:
    """Whether the end of the game is triggered: the last round is on, or the seat to move holds
    17 VP (the round finishes after its turn: rules.md "End of the game")."""
    return st.final_round or st.vp[st.cur] >= END_TRIGGER_VP


def last_turn_gain(st, p: int, settings: MiddleAgesSettings = DEFAULT) -> float:
    """What seat ``p`` can add to its score in one whole turn from its open sites and free crew, in
    VP (a coin 0.1): sites finished cheapest first, each with the fewest of its free workers that
    cover what it still needs (most useful first), the sends' actions (1, then 2, 3 ... for each
    more worker to the same site) from the 3 free actions and actions bought at 5 coins, the wages
    and the bought actions paid from the coins and the rewards of the sites finished before; the
    actions left over take coins (rules.md "Turn", "Send a worker"). An estimate: workers that come
    back from a finished site are not sent again."""
    req, prod, site_value, total, wage = _tables(settings)

    coins = st.coins[p]
    actions = FREE_ACTIONS
    free = list(st.crew[p])
    gained = 0.0
    plans = []
    for s in st.sites[p]:
        g = st.progress[s]
        r = req[s]
        need = [
            r[0] - min(g & 0xFF, r[0]),
            r[1] - min((g >> 8) & 0xFF, r[1]),
            r[2] - min((g >> 16) & 0xFF, r[2]),
            r[3] - min((g >> 24) & 0xFF, r[3]),
        ]
        plans.append((sum(need), s, need))
    plans.sort()
    for _, s, need in plans:
        need = list(need)
        chosen = []
        pool = list(free)
        while any(need) and pool:
            w = max(pool, key=lambda c: (sum(min(a, b) for a, b in zip(prod[c], need)), -wage[c]))
            if not sum(min(a, b) for a, b in zip(prod[w], need)):
                break
            pool.remove(w)
            chosen.append(w)
            need = [max(0, a - b) for a, b in zip(need, prod[w])]
        if any(need):
            continue
        k = len(chosen)
        acts = k * (k + 1) // 2
        pay = sum(wage[w] for w in chosen)
        buy = max(0, acts - actions)
        cost = pay + ACTION_PRICE * buy
        if cost > coins:
            continue
        coins += REWARD[s] - cost
        actions -= acts - buy
        for w in chosen:
            free.remove(w)
        gained += VP[s]
    takes = {1: 1, 2: 3, 3: 6}
    coins += takes.get(min(actions, 3), 0)
    return gained + 0.1 * coins


def late_factor(st, settings: MiddleAgesSettings | None = None) -> float:
    """1 until round ``MA_LATE_ROUND``, then ``MA_LATE_DECAY`` more each round (of ``settings``, an agent's;
    None: ``DEFAULT``): the factor of the
    win values of a game still going on (``builders.ai.evaluate.win_value``). The rules set no limit
    to a game's length (a seat behind may take coins for ever rather than finish the building that
    would end a game it loses, and the seat ahead take coins as fast); a bot that has played this
    long prefers any end to more of the same."""
    s = DEFAULT if settings is None else settings
    late = st.turn // st.num_players - s.MA_LATE_ROUND + 1
    return s.MA_LATE_DECAY**late if late > 0 else 1.0


#: settings -> their weights as the native core takes them (``native_weights``)
_NATIVE: dict[MiddleAgesSettings, list[float]] = {}


def native_weights(settings: MiddleAgesSettings) -> list[float]:
    """The weights of ``settings`` in the order of ``WEIGHT_NAMES``, as numbers: what the native core's
    evaluation and planner take (``MAState.ma_eval_values``, ``ma_plan_turn``)."""
    return numbers_of(settings, WEIGHT_NAMES, _NATIVE)


def values(st, settings: MiddleAgesSettings | None = None) -> list[float]:
    """Per seat: VP and coins; the actions left in the turn (a seat not playing counts its next
    three); for each open site a share of its value (VP, coins, a machine's production) that grows
    with its covered requirement and much more with the part of what it still needs that the seat's
    free crew (or, at ``MA_ROW``, the worker row, for the seat to move only: the row changes before
    another seat plays) can give (sites are staffed fewest needs first, from the pooled production);
    a little for free-crew production no site needs. Then:

    - wages the staffed part of the sites needs beyond the seat's coins cost ``MA_SHORT`` a coin
      (half an action: "3 actions for 6 coins");
    - each site's share is divided by ``1 + queue / horizon``, where ``queue`` is the actions
      (sends, recruits for what the crew lacks, coins to take) to finish it and every site taken
      before it: a site far down the queue is far from paying, so a seat does not open a second
      large site (or recruit for one) before the first is under way;
    - a queue longer than the actions the seat has left (this turn's and 3 a turn until the
      leader is guessed to reach 17 VP at ``MA_PACE`` VP a turn) counts only in the part they cover;
    - in the last round (rules.md "End of the game") a seat that has played its turn counts its
      final score, and the seat to move its VP, coins and actions left (2 coins each): an unfinished
      site is worth nothing then.

    Sites and workers the seat cannot use are worth almost nothing, so opening and recruiting pay
    only when they lead toward finished buildings.

    ``settings`` (``weights(...)``; None: ``DEFAULT``) are the weights (an agent's own: a planner's
    ``planner_middle_ages.LEVEL_WEIGHTS``). A native state is valued inside the core (the same
    numbers, to the bit: tests/native/test_middle_ages_bots.py).
    """
    w = DEFAULT if settings is None else settings
    native = getattr(st, "ma_eval_values", None)  # a native state values itself, with the same numbers
    if native is not None:
        return native(native_weights(w))
    req, prod, site_value, total, wage = _tables(w)
    from builders.middle_ages.rules import RECRUIT

    action_w, staffed_w, staffed_progress, open_w = w.MA_ACTION, w.MA_STAFFED, w.MA_STAFFED_PROGRESS, w.MA_OPEN
    progress_w, row_w, spare_w, short_w = w.MA_PROGRESS, w.MA_ROW, w.MA_SPARE_UNIT, w.MA_SHORT
    horizon, pace, unit_actions, last_turn = w.MA_HORIZON, w.MA_PACE, w.MA_UNIT_ACTIONS, w.MA_LAST_TURN

    n = st.num_players
    out = []
    progress = st.progress
    site_needs = _SITE_NEEDS
    r0 = r1 = r2 = r3 = 0
    if not st.over:
        for code in st.wrow:
            q = prod[code - RECRUIT]
            r0 += q[0]
            r1 += q[1]
            r2 += q[2]
            r3 += q[3]
    done = finished_seats(st)
    final = end_triggered(st)
    turns = 1 + int(max(0, END_TRIGGER_VP - max(st.vp)) / pace)
    # a game gone on this long: coins kept count nothing, so that bots which took coins round after
    # round, neither finishing a building, build to the end (``late_factor`` alone changes no
    # choice within a round where no action can end the game)
    coin = w.MA_COIN if st.turn // n < w.MA_LATE_ROUND else w.MA_LATE_COIN
    for p in range(n):
        if done[p]:
            out.append(st.vp[p] + st.coins[p] // 10 + 0.001 * st.coins[p])
            continue
        last = final and p == st.cur
        if last:
            # the seat's last turn: only what it finishes in it counts (rules.md "End of the game");
            # before it has done anything, what it can still finish in it
            v = st.vp[p] + 0.1 * st.coins[p] + 0.2 * st.actions
            if last_turn and st.actions == FREE_ACTIONS and not st.touched:
                v = max(v, st.vp[p] + last_turn_gain(st, p, w))
            out.append(v)
            continue
        if final and last_turn:
            # a seat whose last turn is still to come in the last round: what it can finish in it
            out.append(st.vp[p] + last_turn_gain(st, p, w))
            continue
        # the actions the seat can still spend: this turn's and 3 a turn until the leader reaches 17 VP
        budget = (st.actions if p == st.cur else 0) + 3 * turns
        v = st.vp[p] + coin * st.coins[p]
        coins = st.coins[p]
        short = 0
        queue = 0.0  # actions to finish this site and the ones before it
        k0 = k1 = k2 = k3 = 0
        cost = 0
        for c in st.crew[p]:
            q = prod[c]
            k0 += q[0]
            k1 += q[1]
            k2 += q[2]
            k3 += q[3]
            cost += wage[c]
        units = k0 + k1 + k2 + k3
        unit_wage = cost / units if units else 2.0
        if p == st.cur:
            w0, w1, w2, w3 = r0, r1, r2, r3
        else:  # only the seat to move recruits before the row changes: no value in denying it
            w0 = w1 = w2 = w3 = 0
        needs = []
        for s in st.sites[p]:
            key = (progress[s] << 8) | s
            t = site_needs.get(key)
            if t is None:
                t = site_needs[key] = _site_need(s, progress[s], req[s])
            needs.append(t)
        needs.sort()
        for need, s, n0, n1, n2, n3 in needs:
            covered = 1.0 - need / total[s]
            value = site_value[s]
            share = open_w + progress_w * covered
            if need:
                c0 = n0 if n0 < k0 else k0
                c1 = n1 if n1 < k1 else k1
                c2 = n2 if n2 < k2 else k2
                c3 = n3 if n3 < k3 else k3
                k0 -= c0
                k1 -= c1
                k2 -= c2
                k3 -= c3
                m0, m1, m2, m3 = n0 - c0, n1 - c1, n2 - c2, n3 - c3
                d0 = m0 if m0 < w0 else w0
                d1 = m1 if m1 < w1 else w1
                d2 = m2 if m2 < w2 else w2
                d3 = m3 if m3 < w3 else w3
                w0 -= d0
                w1 -= d1
                w2 -= d2
                w3 -= d3
                staffed = (c0 + c1 + c2 + c3 + row_w * (d0 + d1 + d2 + d3)) / need
                pay = unit_wage * need * staffed
                acts = unit_actions * (2 * need - c0 - c1 - c2 - c3)
                if pay > coins:
                    short += pay - coins
                    acts += 0.5 * (pay - coins)
                    coins = 0
                else:
                    coins -= pay
            else:
                staffed = 1.0
                acts = 0.0
            share += staffed * (staffed_w - open_w + (staffed_progress - progress_w) * covered)
            queue += acts
            if horizon:
                share /= 1.0 + queue / horizon
            if queue > budget:
                share *= budget / queue
            v += value * share
        v += spare_w * (k0 + k1 + k2 + k3) - short_w * short
        v += action_w * (st.actions if p == st.cur else 3)
        out.append(v)
    return out
