// Kingdom Builder's observation and index mask (builders.rl.kingdom: KingdomCodec.encode_reference,
// KingdomCodec.mask).
#include <cstring>

#include "obs.hpp"

namespace kb {

namespace {

constexpr int STATIC_PLANES = 17, NUM_CARDS = 10, NUM_TERRAINS = 5, NUM_PHASES = 4;
constexpr int PHASE_ACTION = 0, PHASE_TARGET = 1, PHASE_SOURCE = 2, PHASE_MOVE_TARGET = 3;

bool two_hex(int kind) { return kind >= 5; }  // barn, harbor, paddock

inline uint8_t clip(int v) { return (uint8_t)(v < 255 ? v : 255); }

}  // namespace

int obs_size(int n) {
    return (STATIC_PLANES + 1 + n + 1) * CELLS + NUM_CARDS + NUM_TERRAINS * n + 24 * n + n + 2 * NUM_TERRAINS + 6 +
           NUM_PHASES + 8;
}

void encode(const State& st, int seat, int p0, int p1, uint8_t* out) {
    const Board& b = *st.board;
    const int n = st.num_players;
    const int planes = STATIC_PLANES + 1 + n + 1;
    std::memset(out, 0, (size_t)obs_size(n));
    // board: terrain one-hot, location kinds, tiles left, settlements (own first), the picked settlement
    for (int h = 0; h < CELLS; h++) out[b.terrain[h] * CELLS + h] = 1;
    for (int o = 0; o < b.nloc; o++) {
        out[(9 + b.loc_kind[o]) * CELLS + b.loc_hex[o]] = 1;
        out[STATIC_PLANES * CELLS + b.loc_hex[o]] = st.left[o];
    }
    for (int k = 0; k < n; k++) {
        uint8_t* plane = out + (STATIC_PLANES + 1 + k) * CELLS;
        st.own[(seat + k) % n].each([plane](int h) { plane[h] = 1; });
    }
    if (p0 >= TILE0 && two_hex(p0 - TILE0) && p1 >= 0) out[(STATIC_PLANES + 1 + n) * CELLS + p1] = 1;
    uint8_t* at = out + planes * CELLS;
    // cards
    for (int i = 0; i < 3; i++) at[st.cards[i]] = 1;
    at += NUM_CARDS;
    // terrain cards this seat may see; tiles held per kind (ready, used this turn, taken this turn)
    const bool over = st.over;
    uint8_t* tiles = at + NUM_TERRAINS * n;
    for (int k = 0; k < n; k++) {
        int q = (seat + k) % n;
        int t = st.hand[q];
        if (t >= 0 && (k == 0 || (q == st.to_move && !over))) at[NUM_TERRAINS * k + t] = 1;
        uint32_t held = st.held[q];
        while (held) {
            int o = __builtin_ctz(held);
            uint32_t bit = 1u << o;
            held &= held - 1;
            int column = (st.used[q] & bit) ? 1 : (st.newt[q] & bit) ? 2 : 0;
            tiles[24 * k + 3 * b.loc_kind[o] + column]++;
        }
    }
    at = tiles + 24 * n;
    for (int k = 0; k < n; k++) at[k] = (uint8_t)st.supply[(seat + k) % n];
    at += n;
    for (int i = 0; i < st.discard_n; i++) at[st.discard[i]]++;
    for (int i = 0; i < st.removed_n; i++) at[NUM_TERRAINS + st.removed[i]]++;
    at += 2 * NUM_TERRAINS;
    at[0] = (uint8_t)st.built;
    at[1] = st.final_round;
    at[2] = (uint8_t)st.deck_n;
    at[3] = st.to_move == seat && !over;
    at[4] = clip(st.turn);
    at[5] = (uint8_t)(((st.start_player - seat) % n + n) % n);
    at += 6;
    if (p0 < 0) {
        at[PHASE_ACTION] = 1;
    } else {
        int kind = p0 - TILE0;
        at[two_hex(kind) ? (p1 < 0 ? PHASE_SOURCE : PHASE_MOVE_TARGET) : PHASE_TARGET] = 1;
        at[NUM_PHASES + kind] = 1;
    }
}

void index_mask(const std::vector<int32_t>& legal, int p0, int p1, uint8_t* out) {
    std::memset(out, 0, NUM_INDICES);
    if (p0 < 0) {
        for (int32_t a : legal) out[a < CELLS ? a : a == END ? END_INDEX : TILE0 - 1 + (a >> SHIFT)] = 1;
        return;
    }
    int code = p0 - TILE0 + 1;
    bool two = two_hex(code - 1);
    for (int32_t a : legal) {
        if ((a >> SHIFT) != code) continue;
        int src = (a >> SRC_SHIFT) & 511, dst = a & 511;
        if (p1 < 0) out[two ? src : dst] = 1;
        else if (src == p1) out[dst] = 1;
    }
}

int32_t index_action(int p0, int p1, int idx) {
    if (p0 < 0) {
        if (idx >= TILE0 && idx < END_INDEX) return -1;
        return idx == END_INDEX ? END : idx;
    }
    int kind = p0 - TILE0;
    if (two_hex(kind) && p1 < 0) return -1;
    return ((kind + 1) << SHIFT) | ((p1 < 0 ? 0 : p1) << SRC_SHIFT) | idx;
}

}  // namespace kb
