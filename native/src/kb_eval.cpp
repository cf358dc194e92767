// Kingdom Builder: the bots' evaluation inside the native core (see kb_eval.hpp), a port of
// builders.ai.eval_kingdom. The sums are made in the Python function's order, so the values are the
// same doubles.
#include "kb_eval.hpp"

#include <algorithm>
#include <stdexcept>

namespace kb {

namespace {

struct Grid {
    Mask rows[20], sectors[4];
    Grid() {
        for (int h = 0; h < CELLS; h++) {
            int r = h / 20, c = h % 20;
            rows[r].set(h);
            sectors[(r >= 10) * 2 + (c >= 10)].set(h);
        }
    }
};

const Grid G;

inline int mod(int x, int n) { return ((x % n) + n) % n; }

// the 20 hexes of row r of `m`, as bits 0-19
inline uint32_t row_of(const Mask& m, int r) {
    int at = 20 * r, i = at >> 6, off = at & 63;
    uint64_t x = m.w[i] >> off;
    if (off > 44 && i + 1 < WORDS) x |= m.w[i + 1] << (64 - off);
    return (uint32_t)x & 0xFFFFFu;
}

// the rows `m` has a hex in (_row_flags), as bits 0-19
inline uint32_t row_flags(const Mask& m) {
    uint32_t out = 0;
    for (int r = 0; r < 20; r++)
        if (row_of(m, r)) out |= 1u << r;
    return out;
}

// the connected groups of `own` (_KingdomContext.groups), in any order
template <class F> void groups(const Board& b, const Mask& own, F f) {
    Mask rest = own;
    while (rest.any()) {
        int low = rest.lowest();
        rest.clear(low);
        Mask group = Mask::bit(low), front = group;
        while (front.any()) {
            int h = front.lowest();
            front.clear(h);
            Mask n = b.nbr_mask[h] & rest;
            if (n.any()) {
                rest ^= n;
                group |= n;
                front |= n;
            }
        }
        f(group);
    }
}

// how many dilations of `own` reach each sector (0 when it is in it, at most 8: _steps_to_sectors)
void steps_to_sectors(const Mask& own, int out[4]) {
    Mask reach = own;
    int found = 0;
    for (int k = 0; k < 4; k++) out[k] = -1;
    for (int steps = 0;; steps++) {
        for (int k = 0; k < 4; k++)
            if (out[k] < 0 && (reach & G.sectors[k]).any()) { out[k] = steps; found++; }
        if (found == 4 || steps == 8) break;
        reach |= dilate(reach);
    }
    for (int k = 0; k < 4; k++)
        if (out[k] < 0) out[k] = 8;
}

// the areas (rows, sectors) where `own` has the most settlements (or the fewest), together
Mask extreme(const Mask& own, const Mask* areas, int k, bool most) {
    int counts[20], top = most ? 0 : CELLS;
    for (int i = 0; i < k; i++) {
        counts[i] = (own & areas[i]).count();
        top = most ? std::max(top, counts[i]) : std::min(top, counts[i]);
    }
    Mask out;
    for (int i = 0; i < k; i++)
        if (counts[i] == top) out |= areas[i];
    return out;
}

}  // namespace

Weights Weights::from(const double* v) {
    Weights w;
    w.tile_base = v[0], w.tile_per_turn = v[1], w.location_reach = v[2], w.castle_reach = v[3];
    w.lords_lead = v[4], w.farmers_low = v[5], w.citizens_half = v[6], w.frontier = v[7];
    if (!(v[8] >= 1 && v[8] <= 1e6) || v[8] != (double)(int)v[8])
        throw std::invalid_argument("KB_FRONTIER_CAP must be a whole number of at least 1");
    w.frontier_cap = (int)v[8];
    w.new_row = v[9], w.farmers_gap = v[10];
    w.move_castle = v[11], w.move_good = v[12], w.move_merchants = v[13], w.move_knights = v[14];
    w.move_hermits = v[15], w.move_citizens = v[16], w.move_lords = v[17], w.move_farmers = v[18];
    w.move_tile_build = v[19];
    return w;
}

EvalContext::EvalContext(const State& st, const Weights& weights) : board(st.board.get()), w(weights) {
    const Board& b = *board;
    for (int i = 0; i < 3; i++) cards[i] = st.cards[i];
    for (int c : b.castles) {
        if (ncastles == 16) throw std::invalid_argument("too many castles");
        castle_nbr[ncastles++] = b.nbr_mask[c];
        castle_union |= b.nbr_mask[c];
    }
    for (int o = 0; o < b.nloc; o++) {
        loc_nbr[o] = b.nbr_mask[b.loc_hex[o]];
        loc_union |= loc_nbr[o];
    }
    for (int c : cards) {
        if (c == FISHERMEN) goods[ngoods++] = b.near_water.andnot(b.water);
        else if (c == MINERS) goods[ngoods++] = b.near_mountain;
        else if (c == WORKERS || c == MERCHANTS) goods[ngoods++] = b.near_special;
        lords |= c == LORDS;
        discoverers |= c == DISCOVERERS;
    }
}

// _KingdomContext._detail and _combine: the gold of the castles and the cards (lords excepted), the
// shaping, the sector counts
void EvalContext::own_part(const Mask& own, OwnPart& out) const {
    const Board& b = *board;
    for (int k = 0; k < 4; k++) out.counts[k] = (own & G.sectors[k]).count();
    int castles = 0;
    for (int i = 0; i < ncastles; i++) castles += (castle_nbr[i] & own).any();
    double v = 3.0 * castles, shape = 0.0;
    bool have_groups = false;
    int ngroups = 0, big = 0, linked = 0;
    for (int i = 0; i < 3; i++) {
        int card = cards[i], gold = 0;
        switch (card) {
            case FISHERMEN: gold = (own & b.near_water).andnot(b.water).count(); break;
            case MINERS: gold = (own & b.near_mountain).count(); break;
            case WORKERS: gold = (own & b.near_special).count(); break;
            case DISCOVERERS: gold = __builtin_popcount(row_flags(own)); break;
            case KNIGHTS: {
                int best = 0;
                for (int r = 0; r < 20; r++) best = std::max(best, __builtin_popcount(row_of(own, r)));
                gold = 2 * best;
                break;
            }
            case LORDS: continue;
            case FARMERS: gold = 3 * std::min(std::min(out.counts[0], out.counts[1]), std::min(out.counts[2], out.counts[3])); break;
            default: {  // hermits, citizens, merchants: from the groups
                if (!have_groups) {
                    Mask lk;
                    groups(b, own, [&](const Mask& g) {
                        ngroups++;
                        big = std::max(big, g.count());
                        Mask t = dilate(g) & b.special;
                        if (t.count() >= 2) lk |= t;
                    });
                    linked = lk.count();
                    have_groups = true;
                }
                gold = card == HERMITS ? ngroups : card == CITIZENS ? big / 2 : 4 * linked;
            }
        }
        v += gold;
        if (card == CITIZENS) {
            shape += w.citizens_half * (big & 1);
        } else if (card == FARMERS) {
            int low[4] = {out.counts[0], out.counts[1], out.counts[2], out.counts[3]};
            std::sort(low, low + 4);
            shape += w.farmers_low * (low[0] + low[1]);
            if (own.any()) {
                int gaps[4];
                steps_to_sectors(own, gaps);
                for (int k = 0; k < 4; k++)
                    if (!out.counts[k]) shape -= w.farmers_gap * gaps[k];
            }
        }
    }
    out.gold = v;
    out.shape = shape;
}

// eval_kingdom.last_round
bool last_round(const State& st) {
    if (st.final_round) return true;
    int n = st.num_players, start = st.start_player, now = mod(st.to_move - start, n);
    for (int q = 0; q < n; q++)
        if (mod(q - start, n) > now && st.supply[q] <= 3) return true;
    return false;
}

void EvalContext::values(const State& st, bool turn_over, double out[4]) const {
    OwnPart parts[4];
    for (int p = 0; p < st.num_players; p++) own_part(st.own[p], parts[p]);
    values_with(st, turn_over, parts, out);
}

// eval_kingdom._kingdom_values
void EvalContext::values_with(const State& st, bool turn_over, const OwnPart* parts, double out[4]) const {
    const Board& b = *board;
    int n = st.num_players;
    bool over = st.over;
    bool ended[4] = {false, false, false, false};
    if (turn_over && !over && last_round(st)) {
        int now = mod(st.to_move - st.start_player, n);
        for (int q = 0; q < n; q++) ended[q] = mod(q - st.start_player, n) <= now;
    }
    double tile_value = 0;
    Mask free;
    if (!over) {
        int least = st.supply[0];
        for (int q = 1; q < n; q++) least = std::min(least, st.supply[q]);
        double turns_left = least / 3.0;
        tile_value = w.tile_base + w.tile_per_turn * std::min(turns_left, 12.0);
        free = b.buildable.andnot(st.occ);
    }
    int best[4], ties[4], second[4];
    if (lords) {
        for (int k = 0; k < 4; k++) {
            best[k] = -1;
            for (int q = 0; q < n; q++) best[k] = std::max(best[k], parts[q].counts[k]);
            ties[k] = 0;
            second[k] = -1;
            for (int q = 0; q < n; q++) {
                int c = parts[q].counts[k];
                if (c == best[k]) ties[k]++;
                else second[k] = std::max(second[k], c);
            }
        }
    }
    for (int p = 0; p < n; p++) {
        double v = parts[p].gold;
        if (lords) {
            bool going = !over && !ended[p];
            for (int k = 0; k < 4; k++) {
                int m = parts[p].counts[k];
                if (m == best[k]) v += 12;
                else if (m == second[k]) v += 6;
                if (going) {
                    int lead = m - (m == best[k] && ties[k] == 1 ? second[k] : best[k]);
                    v += w.lords_lead * (lead >= -3 && lead <= 2 ? lead : (lead > 2 ? 2 : -3));
                }
            }
        }
        if (over || ended[p]) {
            out[p] = v;
            continue;
        }
        v += parts[p].shape + tile_value * __builtin_popcount(st.held[p]);
        Mask frontier = st.near[p] & free;
        for (int g = 0; g < ngoods; g++) {
            int c = (frontier & goods[g]).count();
            v += w.frontier * (c < w.frontier_cap ? c : w.frontier_cap);
        }
        if (frontier.any()) {
            const Mask& own = st.own[p];
            if (discoverers) v += w.new_row * __builtin_popcount(row_flags(frontier) & ~row_flags(own));
            if ((frontier & loc_union).any()) {
                uint32_t taken = st.taken[p];
                for (int o = 0; o < b.nloc; o++)
                    if (st.left[o] && !(taken >> o & 1) && (loc_nbr[o] & frontier).any()) v += w.location_reach;
            }
            if ((frontier & castle_union).any()) {
                for (int i = 0; i < ncastles; i++)
                    if (!(castle_nbr[i] & own).any() && (castle_nbr[i] & frontier).any()) v += w.castle_reach;
            }
        }
        out[p] = v;
    }
}

// eval_kingdom._kingdom_move_values
void EvalContext::move_values(const State& st, const int32_t* acts, int na, double* out) const {
    const Board& b = *board;
    int p = st.to_move, n = st.num_players;
    const Mask& own = st.own[p];
    const Mask& near = st.near[p];
    struct Feat { Mask m; double w; };
    Feat feats[40];
    int nf = 0;
    Mask m;
    for (int i = 0; i < ncastles; i++)
        if (!(castle_nbr[i] & own).any()) m |= castle_nbr[i];
    if (m.any()) feats[nf++] = {m, w.move_castle};
    m = Mask();
    for (int o = 0; o < b.nloc; o++)
        if (st.left[o] && !(st.taken[p] >> o & 1)) m |= loc_nbr[o];
    if (m.any()) {
        int least = st.supply[0];
        for (int q = 1; q < n; q++) least = std::min(least, st.supply[q]);
        feats[nf++] = {m, w.tile_base + w.tile_per_turn * std::min(least / 3.0, 12.0)};
    }
    for (int card : cards) {
        switch (card) {
            case FISHERMEN: feats[nf++] = {b.near_water.andnot(b.water), w.move_good}; break;
            case MINERS: feats[nf++] = {b.near_mountain, w.move_good}; break;
            case WORKERS: feats[nf++] = {b.near_special, w.move_good}; break;
            case MERCHANTS: feats[nf++] = {b.near_special, w.move_merchants}; break;
            case DISCOVERERS: {
                m = Mask();
                for (int r = 0; r < 20; r++)
                    if (!(own & G.rows[r]).any()) m |= G.rows[r];
                feats[nf++] = {m, w.move_good};
                break;
            }
            case KNIGHTS: feats[nf++] = {extreme(own, G.rows, 20, true), w.move_knights}; break;
            case HERMITS: feats[nf++] = {~near, w.move_hermits}; break;
            case CITIZENS: feats[nf++] = {near, w.move_citizens}; break;
            case LORDS:
                for (int k = 0; k < 4; k++) {
                    int mine = (own & G.sectors[k]).count(), other = -1;
                    for (int q = 0; q < n; q++)
                        if (q != p) other = std::max(other, (st.own[q] & G.sectors[k]).count());
                    feats[nf++] = {G.sectors[k], mine <= other ? w.move_lords : 0.5};
                }
                break;
            default: feats[nf++] = {extreme(own, G.sectors, 4, false), w.move_farmers};  // farmers
        }
    }
    Mask need;
    for (int i = 0; i < na; i++) {
        int32_t a = acts[i];
        if (a < 400) need.set(a);
        else if (a != END) { need.set(a & 511); need.set((a >> SRC_SHIFT) & 511); }
    }
    double hv[512] = {0};
    for (int f = 0; f < nf; f++) (feats[f].m & need).each([&](int h) { hv[h] += feats[f].w; });
    for (int i = 0; i < na; i++) {
        int32_t a = acts[i];
        if (a < 400) out[i] = hv[a];
        else if (a == END) out[i] = 0.0;
        else if ((a >> SHIFT) >= 6) out[i] = hv[a & 511] - 0.5 * hv[(a >> SRC_SHIFT) & 511];
        else out[i] = hv[a & 511] + w.move_tile_build;
    }
}

}  // namespace kb
