// The Builders: Middle Ages: the native core (see ma.hpp). Each function names the Python it ports.
#include "ma.hpp"

#include "kb.hpp"  // kb::Rng, the engines' generator (builders.core.rng.Rng)

namespace ma {

Tables T;

void set_tables(const std::vector<int>& cost, const std::vector<int64_t>& prod, const std::vector<int64_t>& req,
                const std::vector<int>& reward, const std::vector<int>& vp, const std::vector<int>& machines) {
    for (int c = 0; c < NUM_CARDS; c++) {
        T.cost[c] = cost[c];
        T.prod[c] = prod[c];
        T.req[c] = req[c];
        T.reward[c] = reward[c];
        T.vp[c] = vp[c];
        T.machine[c] = false;
    }
    for (int c : machines) T.machine[c] = true;
}

// MiddleAgesState.__init__
void State::start_setup(int players, int start_player, const std::vector<int>& buildings,
                        const std::vector<int>& workers, const std::vector<int>& apprentices) {
    *this = State();
    num_players = players;
    start = cur = start_player;
    for (int p = 0; p < players; p++) {
        coins[p] = START_COINS;
        crew[p].push((int8_t)apprentices[p]);
    }
    int nb = (int)buildings.size(), nw = (int)workers.size();
    for (int i = 0; i < nb; i++) {
        if (i < ROW_SIZE) brow.push((int16_t)(OPEN + buildings[i]));
        else bdeck.v[nb - 1 - i] = (int8_t)buildings[i];  // top last
    }
    bdeck.n = nb > ROW_SIZE ? nb - ROW_SIZE : 0;
    for (int i = 0; i < nw; i++) {
        unrecruited += T.prod[workers[i]];
        if (i < ROW_SIZE) wrow.push((int16_t)(RECRUIT + workers[i]));
        else wdeck.v[nw - 1 - i] = (int8_t)workers[i];
    }
    wdeck.n = nw > ROW_SIZE ? nw - ROW_SIZE : 0;
}

// setup.random_setup (its draws)
void random_draws(int players, uint64_t seed, std::vector<int>& buildings, std::vector<int>& apprentices,
                  const std::vector<int>& others, std::vector<int>& workers) {
    kb::Rng rng{seed};
    rng.shuffle(buildings.data(), (int)buildings.size());
    rng.shuffle(apprentices.data(), (int)apprentices.size());
    workers.assign(apprentices.begin() + players, apprentices.end());
    workers.insert(workers.end(), others.begin(), others.end());
    rng.shuffle(workers.data(), (int)workers.size());
    apprentices.resize(players);
}

static inline bool covers(int64_t progress, int64_t requirement) {
    return (((progress | GUARD) - requirement) & GUARD) == GUARD;
}

// MiddleAgesState.legal_actions, in parts (see Legal)
void State::legal(Legal& L) const {
    L.nready = L.nopen = 0;
    if (over) {
        L.nhead = 0;
        return;
    }
    int left = actions, p = cur, c = coins[p];
    int32_t* h = L.head;
    if (!left) {
        h[0] = END;
        h[1] = BUY;
        L.nhead = 1 + (c >= ACTION_PRICE);
        return;
    }
    h[0] = BUY;
    h += c >= ACTION_PRICE;
    h[0] = COINS + 1;  // the coins: as many takes as actions left, at most 3
    h[1] = COINS + 2;
    h[2] = COINS + 3;
    h += left < 3 ? left : 3;
    for (int i = 0; i < ROW_SIZE; i++) h[i] = brow.v[i];  // whole rows, then as many as they hold
    h += brow.n;
    for (int i = 0; i < ROW_SIZE; i++) h[i] = wrow.v[i];
    h += wrow.n;
    L.nhead = (int)(h - L.head);
    // the sends: each site that may take one (after the first send of the turn, one with fewer
    // sends than the actions left), with each worker whose wage the seat can pay (every one from 5
    // coins on: no wage is higher)
    const auto& cr = crew[p];
    const auto& ss = sites[p];
    if (!cr.n || !ss.n) return;
    int nready = 0;
    if (c >= 5) {
        for (int i = 0; i < cr.n; i++) L.ready[i] = cr.v[i];
        nready = cr.n;
    } else {
        for (int8_t w : cr) {
            L.ready[nready] = w;
            nready += T.cost[w] <= c;
        }
    }
    if (!nready) return;
    L.nready = nready;
    int nopen = 0;
    if (!touched.n) {
        for (int i = 0; i < ss.n; i++) L.open[i] = ss.v[i];
        nopen = ss.n;
    } else {
        for (int8_t s : ss) {
            L.open[nopen] = s;
            nopen += sent[s] < left;
        }
    }
    L.nopen = nopen;
}

// MiddleAgesState.legal_actions (sized once, then written in place: the sends are most of a list)
void State::legal_actions(std::vector<int32_t>& out) const {
    Legal L;
    legal(L);
    out.resize((size_t)L.count());
    L.write(out.data(), [](int32_t a) { return a; });
}

// the refusals of MiddleAgesState.apply
bool State::is_legal(int64_t action) const {
    if (over) return false;
    int p = cur;
    if (action < OPEN) {
        if (action > BUY) {
            int64_t k = action - COINS;
            return !(k > 3 || k > actions);
        }
        if (action == END) return !actions;
        if (action != BUY) return false;
        return coins[p] >= ACTION_PRICE;
    }
    if (action >= SEND) {
        int64_t w = action & 127, s = (action >> 7) - (SEND >> 7);
        if (s >= NUM_CARDS || !crew[p].has((int8_t)w) || !sites[p].has((int8_t)s)) return false;
        int need = sent[s] + 1;
        return !(need > actions || coins[p] - T.cost[w] < 0);
    }
    const auto& row = action >= RECRUIT ? wrow : brow;
    return row.has((int16_t)action) && actions;
}

// MiddleAgesState.apply (the action is legal)
int State::apply(int32_t action) {
    int p = cur;
    if (action < OPEN) {
        if (action > BUY) {
            int k = action - COINS;
            actions -= k;
            static const int gain[4] = {0, 1, 3, 6};
            coins[p] += gain[k];
            if (keep_history) history.push_back(action);
            return 0;
        }
        if (action == END) {
            if (keep_history) history.push_back(END);
            for (int8_t s : touched) sent[s] = 0;
            touched.n = 0;
            if (vp[p] >= END_TRIGGER_VP) final_round = true;
            turn++;
            p++;
            if (p == num_players) p = 0;
            if (p == start && (final_round || !(brow.n || bdeck.n || can_gain_vp()))) over = true;
            cur = p;
            actions = FREE_ACTIONS;
            return 0;
        }
        coins[p] -= ACTION_PRICE;
        actions++;
        if (keep_history) history.push_back(BUY);
        return 0;
    }
    if (action >= SEND) {
        int w = action & 127, s = (action >> 7) - (SEND >> 7);
        auto& cr = crew[p];
        int need = sent[s] + 1;
        int c = coins[p] - T.cost[w];
        actions -= need;
        sent[s] = (int16_t)need;
        if (need == 1) touched.push((int8_t)s);
        cr.remove((int8_t)w);
        int64_t prog = progress[s] + T.prod[w];
        if (keep_history) history.push_back(action);
        if (covers(prog, T.req[s])) {
            unplace(s, cr);
            has_placed[s] = false;
            cr.push((int8_t)w);
            sites[p].remove((int8_t)s);
            done[p].push((int8_t)s);
            vp[p] += T.vp[s];
            c += T.reward[s];
            progress[s] = 0;
            sent[s] = 0;
            if (T.machine[s]) cr.push((int8_t)s);
        } else {
            place(s, w);
            progress[s] = (uint32_t)prog;
        }
        coins[p] = c;
        return 0;
    }
    bool recruit = action >= RECRUIT;
    auto& row = recruit ? wrow : brow;
    auto& deck = recruit ? wdeck : bdeck;
    int forced = -1, used = 0;
    if (forced_card != -2 && deck.n) {
        if (forced_card < 0 || !deck.has((int8_t)forced_card)) throw ForcedError{!recruit};
        forced = forced_card;
        used = 1;
    }
    actions--;
    int base;
    if (recruit) {
        base = RECRUIT;
        crew[p].push((int8_t)(action - RECRUIT));
        unrecruited -= T.prod[action - RECRUIT];
    } else {
        base = OPEN;
        int c = action - OPEN;
        sites[p].push((int8_t)c);
        has_placed[c] = true;  // (no worker is on a card of the building row: none to take off)
    }
    if (keep_history) history.push_back(action);
    if (deck.n) {
        int nw;
        if (forced >= 0) {
            deck.remove((int8_t)forced);
            nw = forced;
        } else {
            nw = deck.v[--deck.n];
        }
        row.v[row.find((int16_t)action)] = (int16_t)(base + nw);
        if (keep_history) history.push_back(-(nw + 1));
    } else {
        row.remove((int16_t)action);
    }
    return used;
}

// rules.can_gain_vp
bool State::can_gain_vp() const {
    if (brow.n || bdeck.n) return true;
    for (int p = 0; p < num_players; p++) {
        if (!sites[p].n) continue;
        int64_t mine = unrecruited;
        for (int8_t w : crew[p]) mine += T.prod[w];
        for (int8_t s : sites[p])
            if (covers(progress[s] + mine, T.req[s])) return true;
    }
    return false;
}

// scoring.breakdown
void State::breakdown(int seat, int out[3]) const {
    out[0] = out[1] = 0;
    for (int8_t c : done[seat]) out[T.machine[c] ? 1 : 0] += T.vp[c];
    out[2] = coins[seat] / 10;
}

}  // namespace ma
