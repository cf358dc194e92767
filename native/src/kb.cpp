// Kingdom Builder: the native core (see kb.hpp). Each function names the Python function it ports.
#include "kb.hpp"

#include <algorithm>

namespace kb {

namespace {

Mask make_full() { Mask m; for (int h = 0; h < CELLS; h++) m.set(h); return m; }

struct Tables {
    Mask not_col0, not_col19, even_rows, odd_rows, even_not_col0, odd_not_col19, edge;
    Mask rows[20], sectors[4];
    Mask jump_from[6];
    Tables() {
        for (int h = 0; h < CELLS; h++) {
            int r = h / 20, c = h % 20;
            if (c != 0) not_col0.set(h);
            if (c != 19) not_col19.set(h);
            if (r % 2 == 0) even_rows.set(h); else odd_rows.set(h);
            if (r == 0 || r == 19 || c == 0 || c == 19) edge.set(h);
            rows[r].set(h);
            sectors[(r >= 10) * 2 + (c >= 10)].set(h);
        }
        even_not_col0 = even_rows & not_col0;
        odd_not_col19 = odd_rows & not_col19;
        for (int d = 0; d < 6; d++)
            for (int h = 0; h < CELLS; h++) {
                int r = h / 20, c = h % 20;
                step(r, c, d); step(r, c, d);
                if (0 <= r && r < 20 && 0 <= c && c < 20) jump_from[d].set(h);
            }
    }
    static void step(int& r, int& c, int d) {  // board.step
        int odd = r & 1;
        switch (d) {
            case 0: c -= 1; break;
            case 1: c += 1; break;
            case 2: r -= 1; c += -1 + odd; break;
            case 3: r -= 1; c += odd; break;
            case 4: r += 1; c += -1 + odd; break;
            default: r += 1; c += odd; break;
        }
    }
};

}  // namespace

const Mask FULL = make_full();
static const Tables T;
static const int JUMP_DELTA[6] = {-2, 2, -41, -39, 39, 41};

Mask Mask::shl(int k) const {
    Mask r;
    r.w[0] = w[0] << k;
    for (int i = 1; i < WORDS; i++) r.w[i] = (w[i] << k) | (w[i - 1] >> (64 - k));
    return r & FULL;
}

Mask Mask::shr(int k) const {
    Mask r;
    for (int i = 0; i < WORDS - 1; i++) r.w[i] = (w[i] >> k) | (w[i + 1] << (64 - k));
    r.w[WORDS - 1] = w[WORDS - 1] >> k;
    return r;
}

static inline Mask shift_by(const Mask& m, int delta) { return delta > 0 ? m.shl(delta) : m.shr(-delta); }

// board.dilate
Mask dilate(const Mask& m) {
    Mask e = m & T.even_not_col0, o = m & T.odd_not_col19;
    return (m & T.not_col19).shl(1) | (m & T.not_col0).shr(1) | m.shr(20) | m.shl(20) | e.shr(21) | e.shl(19) |
           o.shr(19) | o.shl(21);
}

// board.shift
Mask shift_dir(const Mask& m, int d) {
    if (d == 1) return (m & T.not_col19).shl(1);
    if (d == 0) return (m & T.not_col0).shr(1);
    Mask e = m & T.even_rows, o = m & T.odd_rows;
    if (d == 2) return (e & T.not_col0).shr(21) | o.shr(20);
    if (d == 3) return e.shr(20) | (o & T.not_col19).shr(19);
    if (d == 4) return (e & T.not_col0).shl(19) | o.shl(20);
    return e.shl(20) | (o & T.not_col19).shl(21);
}

Board::Board(const std::vector<int>& terr, const std::vector<int>& kind_of_hex) {
    for (int h = 0; h < CELLS; h++) {
        terrain[h] = (int8_t)terr[h];
        code_mask[terr[h]].set(h);
        loc_ord[h] = -1;
        int r = h / 20, c = h % 20;
        for (int d = 0; d < 6; d++) {
            int rr = r, cc = c;
            Tables::step(rr, cc, d);
            if (0 <= rr && rr < 20 && 0 <= cc && cc < 20) nbr_mask[h].set(rr * 20 + cc);
        }
    }
    for (int code = 0; code < 5; code++) buildable |= code_mask[code];
    water = code_mask[WATER];
    special = code_mask[CASTLE] | code_mask[LOCATION];
    location = code_mask[LOCATION];
    code_mask[CASTLE].each([&](int h) { castles.push_back(h); });
    for (int k = 0; k < 8; k++) kind_loc[k] = 0;
    location.each([&](int h) {
        if (nloc >= MAX_LOC) throw std::invalid_argument("too many location hexes");
        loc_hex[nloc] = h;
        loc_kind[nloc] = kind_of_hex[h];
        if (kind_of_hex[h] < 0 || kind_of_hex[h] > 7) throw std::invalid_argument("a location hex has no kind");
        kind_loc[kind_of_hex[h]] |= 1u << nloc;
        loc_ord[h] = nloc++;
    });
    for (int h = 0; h < CELLS; h++) {
        adj_loc[h] = 0;
        (nbr_mask[h] & location).each([&](int l) { adj_loc[h] |= 1u << loc_ord[l]; });
    }
    near_water = dilate(water);
    near_mountain = dilate(code_mask[MOUNTAIN]);
    near_special = dilate(special);
    edge_buildable = T.edge & buildable;
}

// setup.start_state (the deck given top first, or the full deck shuffled with the seed)
State State::new_game(std::shared_ptr<const Board> board, int players, const int* cards, int start, uint64_t seed,
                      const std::vector<int>* deck_top_first) {
    State st;
    st.board = std::move(board);
    st.num_players = players;
    st.start_player = st.to_move = start;
    for (int i = 0; i < 3; i++) st.cards[i] = cards[i];
    st.rng.state = seed;
    int8_t deck[25];
    if (deck_top_first) {
        for (int i = 0; i < 25; i++) deck[i] = (int8_t)(*deck_top_first)[i];
    } else {
        for (int i = 0; i < 25; i++) deck[i] = (int8_t)(i / 5);
        st.rng.shuffle(deck, 25);
    }
    for (int i = 0; i < 25; i++) st.deck[i] = deck[24 - i];  // top card last
    st.deck_n = 25;
    for (int i = 0; i < players; i++) st.hand[(start + i) % players] = st.deck[--st.deck_n];
    return st;
}

static inline void emit(const Mask& m, int32_t base, std::vector<int32_t>& out) {
    m.each([&](int h) { out.push_back(base | h); });
}

// rules.free_hexes
void State::free_hexes(int p, int code, int32_t base, std::vector<int32_t>& out) const {
    Mask cand = board->code_mask[code].andnot(occ);
    Mask m = cand & near[p];
    emit(m.any() ? m : cand, base, out);
}

static inline Mask adjacent_if_possible(const Mask& cand, const Mask& near) {
    Mask m = cand & near;
    return m.any() ? m : cand;
}

// tiles.tavern_line_ends
Mask tavern_line_ends(const Mask& own) {
    Mask ends;
    for (int d = 0; d < 6; d++) {
        Mask a = shift_dir(own, d);
        Mask starts = own & a & shift_dir(a, d);
        ends |= shift_dir(starts, d);
    }
    return ends;
}

// tiles.BUILD_TILES (oracle, farm, oasis, tower, tavern)
Mask State::build_targets(int p, int kind) const {
    const Board& b = *board;
    switch (kind) {
        case 0: {
            int t = hand[p];
            if (t < 0) return Mask();
            return adjacent_if_possible(b.code_mask[t].andnot(occ), near[p]);
        }
        case 1: return adjacent_if_possible(b.code_mask[GRASS].andnot(occ), near[p]);
        case 2: return adjacent_if_possible(b.code_mask[DESERT].andnot(occ), near[p]);
        case 3: return adjacent_if_possible(b.edge_buildable.andnot(occ), near[p]);
        default: return tavern_line_ends(own[p]) & b.buildable.andnot(occ);
    }
}

// tiles.near_once
static Mask near_once(const Mask& own) {
    Mask one, two;
    for (int d = 0; d < 6; d++) {
        Mask m = shift_dir(own, d);
        two |= one & m;
        one |= m;
    }
    return one.andnot(two);
}

// tiles.lift_moves
void State::lift_moves(int p, const Mask& terrain, int code, std::vector<int32_t>& out) const {
    const Mask& ownp = own[p];
    Mask cand = terrain.andnot(occ);
    Mask near_cand = cand & near[p];
    bool has_near = near_cand.any();
    Mask lonely = has_near ? near_cand & near_once(ownp) : Mask();
    const Mask& common = has_near ? near_cand : cand;
    int32_t code_bits = code << SHIFT;
    ownp.each([&](int s) {
        const Mask& nb = board->nbr_mask[s];
        int32_t base = code_bits | (s << SRC_SHIFT);
        bool back = terrain.test(s);
        Mask ln = lonely & nb;
        if (back || ln.any()) {
            Mask adj = near_cand.andnot(ln);
            if (back && (nb & ownp).any()) adj.set(s);
            if (adj.any()) {
                emit(adj, base, out);
            } else {
                Mask all = cand;
                if (back) all.set(s);
                emit(all, base, out);
            }
        } else {
            emit(common, base, out);
        }
    });
}

// tiles.paddock_moves
void State::paddock_moves(int p, std::vector<int32_t>& out) const {
    Mask free = board->buildable.andnot(occ);
    for (int d = 0; d < 6; d++) {
        Mask src = own[p] & T.jump_from[d];
        if (!src.any()) continue;
        int delta = JUMP_DELTA[d];
        Mask targets = shift_by(src, delta) & free;
        targets.each([&](int t) { out.push_back((PADDOCK << SHIFT) | ((t - delta) << SRC_SHIFT) | t); });
    }
}

// tiles.paddock_reaches
bool paddock_reaches(int src, int dst) {
    for (int d = 0; d < 6; d++)
        if (T.jump_from[d].test(src) && src + JUMP_DELTA[d] == dst) return true;
    return false;
}

// rules.tile_actions
void State::tile_actions(int p, uint32_t ready, int sup, std::vector<int32_t>& out) const {
    const Board& b = *board;
    for (int kind = 0; kind < 8; kind++) {
        if (!(ready & b.kind_loc[kind])) continue;
        if (kind < 5) {
            if (!sup) continue;
            int32_t code_bits = (kind + 1) << SHIFT;
            if (kind == 0) {
                if (hand[p] >= 0) free_hexes(p, hand[p], code_bits, out);
            } else if (kind == 1) {
                free_hexes(p, GRASS, code_bits, out);
            } else if (kind == 2) {
                free_hexes(p, DESERT, code_bits, out);
            } else {
                emit(build_targets(p, kind), code_bits, out);
            }
        } else if (kind == 5) {
            if (hand[p] >= 0) lift_moves(p, b.code_mask[hand[p]], BARN, out);
        } else if (kind == 6) {
            lift_moves(p, b.water, HARBOR, out);
        } else {
            paddock_moves(p, out);
        }
    }
}

// rules.legal_actions
void State::legal_actions(std::vector<int32_t>& out) const {
    out.clear();
    if (over) return;
    int p = to_move, t = hand[p], sup = supply[p];
    bool done;
    if (built < 3 && sup && t >= 0) {
        free_hexes(p, t, 0, out);
        if (built) return;
        done = false;
    } else {
        done = true;
    }
    uint32_t ready = held[p] & ~used[p] & ~newt[p];
    if (ready) tile_actions(p, ready, sup, out);
    if (done) out.push_back(END);
}

// rules.is_legal
bool State::is_legal(int64_t action) const {
    if (over || action < 0 || action >= (int64_t(1) << 31)) return false;
    const Board& b = *board;
    int p = to_move, t = hand[p], sup = supply[p];
    if (action < 400) {
        if (built >= 3 || !sup || t < 0) return false;
        return adjacent_if_possible(b.code_mask[t].andnot(occ), near[p]).test((int)action);
    }
    bool active = built < 3 && sup && t >= 0;
    if (action == END) return !active;
    int code = (int)(action >> SHIFT), src = (int)((action >> SRC_SHIFT) & 511), dst = (int)(action & 511);
    if (code >= END_CODE || src >= 400 || dst >= 400) return false;
    if (code == 0) return false;  // a build with bits above the hex: not an action
    if (active && built) return false;
    int kind = code - 1;
    if (!ready_tile(p, kind)) return false;
    if (code < BARN) return !src && sup && build_targets(p, kind).test(dst);
    if (!own[p].test(src)) return false;
    if (code == PADDOCK) return paddock_reaches(src, dst) && b.buildable.andnot(occ).test(dst);
    Mask terrain;
    if (code == HARBOR) terrain = b.water;
    else if (t < 0) return false;
    else terrain = b.code_mask[t];
    Mask sb = Mask::bit(src);
    Mask cand = terrain.andnot(occ.andnot(sb));
    return adjacent_if_possible(cand, dilate(own[p].andnot(sb))).test(dst);
}

// rules.take_tiles
void State::take_tiles(int p, int h) {
    uint32_t m = board->adj_loc[h] & ~taken[p];
    while (m) {
        uint32_t low = m & (0u - m);
        m ^= low;
        int o = __builtin_ctz(low);
        if (left[o]) {
            left[o]--;
            taken[p] |= low;
            held[p] |= low;
            newt[p] |= low;
        }
    }
}

// rules.lose_tiles
void State::lose_tiles(int p, int h) {
    const Board& b = *board;
    uint32_t m = b.adj_loc[h] & held[p];
    while (m) {
        uint32_t low = m & (0u - m);
        m ^= low;
        int o = __builtin_ctz(low);
        if ((b.nbr_mask[b.loc_hex[o]] & own[p]).any()) continue;
        uint32_t other = held[p] & b.kind_loc[b.loc_kind[o]] & ~low;
        uint32_t u = used[p];
        if (other && (u & other) && !(u & low)) {
            used[p] &= ~other;
            if (newt[p] & low) newt[p] |= other;
        }
        held[p] &= ~low;
        used[p] &= ~low;
        newt[p] &= ~low;
    }
}

// rules.place
void State::place(int p, int h) {
    own[p].set(h);
    occ.set(h);
    near[p] |= board->nbr_mask[h];
    if (board->adj_loc[h] & ~taken[p]) take_tiles(p, h);
}

// rules.move
void State::move(int p, int src, int dst) {
    own[p].clear(src);
    occ.clear(src);
    place(p, dst);
    near[p] = dilate(own[p]);
    if (board->adj_loc[src] & held[p]) lose_tiles(p, src);
}

// KingdomState._reshuffle
void State::reshuffle() {
    for (int i = 0; i < discard_n; i++) deck[i] = discard[i];
    deck_n = discard_n;
    discard_n = 0;
    rng.shuffle(deck, deck_n);
}

// KingdomState._draw
int State::draw() {
    if (!deck_n && discard_n) reshuffle();
    int code;
    if (forced_pos < (int)forced.size()) {
        int index = forced_pos++;
        code = forced[index];
        if (code < 0) throw ForcedError{0, index};
        int i = deck_n - 1;
        while (i >= 0 && deck[i] != code) i--;
        if (i < 0) throw ForcedError{1, index};
        for (int j = i; j < deck_n - 1; j++) deck[j] = deck[j + 1];
        deck_n--;
    } else if (deck_n) {
        code = deck[--deck_n];
    } else {
        return -1;
    }
    if (keep_history) history.push_back(-(code + 1));
    if (!deck_n && discard_n && !legacy) reshuffle();
    return code;
}

// KingdomState._replace_card
void State::replace_card(int p) {
    while (hand[p] >= 0 && !board->code_mask[hand[p]].andnot(occ).any()) {
        removed[removed_n++] = (int8_t)hand[p];
        hand[p] = draw();
    }
}

// KingdomState._end_turn
void State::end_turn(int p) {
    if (hand[p] >= 0) {
        discard[discard_n++] = (int8_t)hand[p];
        if (!deck_n && !legacy) reshuffle();
    }
    hand[p] = -1;
    used[p] = 0;
    newt[p] = 0;
    built = 0;
    if (final_round && p == (start_player - 1 + num_players) % num_players) {
        over = true;
        return;
    }
    hand[p] = draw();
    turn++;
    int q = to_move = (p + 1) % num_players;
    int t = hand[q];
    if (t >= 0 && supply[q] && !board->code_mask[t].andnot(occ).any()) replace_card(q);
}

// KingdomState._apply
void State::apply(int32_t action) {
    if (keep_history) history.push_back(action);
    int p = to_move;
    const Board& b = *board;
    if (action < 400) {
        own[p].set(action);
        occ.set(action);
        near[p] |= b.nbr_mask[action];
        uint32_t adj = b.adj_loc[action];
        if (adj && (adj & ~taken[p])) take_tiles(p, action);
        int sup = --supply[p];
        int bt = ++built;
        if (!sup) {
            final_round = true;
        } else if (bt < 3) {
            if (!b.code_mask[hand[p]].andnot(occ).any()) replace_card(p);
        }
        return;
    }
    if (action == END) {
        end_turn(p);
        return;
    }
    int code = action >> SHIFT, dst = action & 511;
    uint32_t tile = ready_tile(p, code - 1);
    used[p] |= tile;
    if (code >= BARN) {
        move(p, (action >> SRC_SHIFT) & 511, dst);
    } else {
        supply[p]--;
        place(p, dst);
        if (!supply[p]) final_round = true;
    }
    int t = hand[p];
    if (built < 3 && supply[p] && t >= 0 && !b.code_mask[t].andnot(occ).any()) replace_card(p);
}

void State::apply_forced(int32_t action, const std::vector<int8_t>& f, int& consumed) {
    State snapshot = *this;
    forced = f;
    forced_pos = 0;
    try {
        apply(action);
    } catch (const ForcedError&) {
        *this = std::move(snapshot);
        throw;
    }
    consumed = forced_pos;
    forced.clear();
    forced_pos = 0;
}

// -- scoring (scoring.py) ------------------------------------------------------------------------

template <class F> static void each_group(const Mask& own, F f) {
    Mask rest = own;
    while (rest.any()) {
        Mask group = Mask::bit(rest.lowest());
        while (true) {
            Mask grown = (group | dilate(group)) & own;
            if (grown == group) break;
            group = grown;
        }
        f(group);
        rest = rest.andnot(group);
    }
}

int card_score(const State& st, int seat, int card) {
    const Board& b = *st.board;
    const Mask& own = st.own[seat];
    switch (card) {
        case 0: return (own & b.near_water).andnot(b.water).count();  // fishermen
        case 1: return (own & b.near_mountain).count();               // miners
        case 2: {                                                      // merchants
            Mask linked;
            each_group(own, [&](const Mask& g) {
                Mask touched = dilate(g) & b.special;
                if (touched.count() >= 2) linked |= touched;
            });
            return 4 * linked.count();
        }
        case 3: return (own & b.near_special).count();  // workers
        case 4: {                                        // discoverers
            int n = 0;
            for (int r = 0; r < 20; r++) n += (own & T.rows[r]).any();
            return n;
        }
        case 5: {  // knights
            int best = 0;
            for (int r = 0; r < 20; r++) best = std::max(best, (own & T.rows[r]).count());
            return 2 * best;
        }
        case 6: {  // hermits
            int n = 0;
            each_group(own, [&](const Mask&) { n++; });
            return n;
        }
        case 7: {  // lords
            int gold = 0;
            for (int s = 0; s < 4; s++) {
                int counts[4], first = -1, second = -1;
                for (int q = 0; q < st.num_players; q++) counts[q] = (st.own[q] & T.sectors[s]).count();
                for (int q = 0; q < st.num_players; q++) first = std::max(first, counts[q]);
                for (int q = 0; q < st.num_players; q++)
                    if (counts[q] < first) second = std::max(second, counts[q]);
                int mine = counts[seat];
                if (mine == first) gold += 12;
                else if (second >= 0 && mine == second) gold += 6;
            }
            return gold;
        }
        case 8: {  // citizens
            int best = 0;
            each_group(own, [&](const Mask& g) { best = std::max(best, g.count()); });
            return best / 2;
        }
        default: {  // farmers
            int least = 1000;
            for (int s = 0; s < 4; s++) least = std::min(least, (own & T.sectors[s]).count());
            return 3 * least;
        }
    }
}

void State::scores(int seat, int out[4]) const {
    int n = 0;
    for (int c : board->castles)
        if ((board->nbr_mask[c] & own[seat]).any()) n++;
    out[0] = 3 * n;
    for (int i = 0; i < 3; i++) out[i + 1] = card_score(*this, seat, cards[i]);
}

}  // namespace kb
