// Kingdom Builder: the turn planner's searches inside the native core (see kb_eval.hpp), a port of
// builders.ai.planner_kingdom's beam search (TurnPlanner._plans) and games played out (_play_out),
// and of the generator of Python's random.Random that breaks their ties.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>

#include "kb_eval.hpp"

namespace kb {

// -- random.Random (CPython's _randommodule.c: MT19937, init_by_array, random, getrandbits) -------

namespace {

constexpr int MT_N = 624, MT_M = 397;

void init_genrand(uint32_t* mt, uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < MT_N; i++) mt[i] = 1812433253u * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
}

}  // namespace

void PyRandom::seed(uint64_t n) {
    // random.Random(n) for an int n >= 0: its 32-bit words, least significant first, as the key
    uint32_t key[2] = {(uint32_t)n, (uint32_t)(n >> 32)};
    int len = n >> 32 ? 2 : 1;
    init_genrand(mt, 19650218u);
    int i = 1, j = 0;
    for (int k = std::max(MT_N, len); k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
        if (j >= len) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= MT_N) { mt[0] = mt[MT_N - 1]; i = 1; }
    }
    mt[0] = 0x80000000u;
    index = MT_N;
}

uint32_t PyRandom::next32() {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    if (index >= MT_N) {
        int kk;
        uint32_t y;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000u) | (mt[kk + 1] & 0x7fffffffu);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1];
        }
        y = (mt[MT_N - 1] & 0x80000000u) | (mt[0] & 0x7fffffffu);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1];
        index = 0;
    }
    uint32_t y = mt[index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint64_t PyRandom::getrandbits(int k) {
    if (k <= 32) return next32() >> (32 - k);
    uint64_t low = next32();
    uint64_t high = next32() >> (64 - k);
    return low | high << 32;
}

// -- the beam search ------------------------------------------------------------------------------

namespace {

constexpr int32_t TILE = 1 << SHIFT;

// what a position of the search is told apart by (the key of TurnPlanner._plans)
struct Key {
    Mask own;
    uint32_t held, used;
    int hand, built;
    bool operator==(const Key& o) const {
        return own == o.own && held == o.held && used == o.used && hand == o.hand && built == o.built;
    }
};

struct KeyHash {
    size_t operator()(const Key& k) const {
        uint64_t h = 0x9E3779B97F4A7C15ULL;
        for (int i = 0; i < WORDS; i++) h = (h ^ k.own.w[i]) * 0xBF58476D1CE4E5B9ULL;
        h = (h ^ k.held ^ (uint64_t)k.used << 32) * 0x94D049BB133111EBULL;
        h ^= (uint64_t)(k.hand + 1) << 8 | (uint64_t)k.built;
        return (size_t)(h ^ (h >> 29));
    }
};

// _fewer_tile_actions: `legal` with only the best tile actions by the move heuristic (the settings'
// TILE_ACTIONS of them)
void fewer_tile_actions(const EvalContext& ctx, const State& st, std::vector<int32_t>& legal,
                        std::vector<int32_t>& tiles, std::vector<double>& values, std::vector<int>& order) {
    tiles.clear();
    for (int32_t a : legal)
        if (a >= TILE && a != END) tiles.push_back(a);
    if ((int)tiles.size() <= ctx.w.tile_actions) return;
    values.resize(tiles.size());
    ctx.move_values(st, tiles.data(), (int)tiles.size(), values.data());
    order.resize(tiles.size());
    for (size_t i = 0; i < order.size(); i++) order[i] = (int)i;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values[a] > values[b]; });
    std::vector<int32_t> keep;
    for (int i = 0; i < ctx.w.tile_actions; i++) keep.push_back(tiles[order[i]]);
    size_t w = 0;
    for (int32_t a : legal)
        if (a < TILE || a == END || std::find(keep.begin(), keep.end(), a) != keep.end()) legal[w++] = a;
    legal.resize(w);
}

// a position valued in a step: its lead, its tie-break, where it comes from
struct Child {
    double value, tie;
    int from;
    int32_t action;
    OwnPart part;
};

bool better(double v1, double r1, double v2, double r2) { return v1 > v2 || (v1 == v2 && r1 > r2); }

double lead_of(const double* v, int n, int seat) {
    double best = -std::numeric_limits<double>::infinity();
    bool first = true;
    for (int q = 0; q < n; q++)
        if (q != seat && (first || v[q] > best)) { best = v[q]; first = false; }
    return v[seat] - best;
}

}  // namespace

void PlanSearch::run(const EvalContext& ctx, const State& root, int seat, int width, bool keep, PyRandom& rnd,
                     const std::function<bool(int64_t)>* late) {
    nodes.clear();
    parent.clear();
    action.clear();
    plans.clear();
    evals = 0;
    best = -std::numeric_limits<double>::infinity();
    int n = root.num_players;
    // the parts of the seats that do not move are those of the root (a turn moves no other settlement)
    OwnPart base[4], parts[4];
    for (int q = 0; q < n; q++) ctx.own_part(root.own[q], base[q]);
    auto lead = [&](const State& s, const OwnPart& mine) {
        for (int q = 0; q < n; q++) {
            if (q == seat) parts[q] = mine;
            else if (s.own[q] == root.own[q]) parts[q] = base[q];
            else ctx.own_part(s.own[q], parts[q]);
        }
        double v[4];
        ctx.values_with(s, true, parts, v);
        return lead_of(v, n, seat);
    };
    std::vector<OwnPart> node_part;
    nodes.push_back(root);
    parent.push_back(-1);
    action.push_back(0);
    node_part.push_back(base[seat]);
    std::vector<int> beam{0};
    struct Done { double value, tie; int node; };
    std::vector<Done> done;
    std::unordered_set<Key, KeyHash> seen;
    std::vector<Child> children;
    std::vector<int32_t> legal, tiles;
    std::vector<double> values;
    std::vector<int> order;
    State c;
    OwnPart mine;
    while (!beam.empty()) {
        children.clear();
        for (int b : beam) {
            nodes[b].legal_actions(legal);
            if ((int)legal.size() > ctx.w.tile_actions) fewer_tile_actions(ctx, nodes[b], legal, tiles, values, order);
            for (int32_t a : legal) {
                if (a == END) {  // the turn is complete
                    double value = lead(nodes[b], node_part[b]);
                    evals++;
                    if (keep) done.push_back({value, rnd.random(), b});
                    else if (value > best) best = value;
                    continue;
                }
                c = nodes[b];
                c.apply(a);
                Key key{c.own[seat], c.held[seat], c.used[seat], c.hand[seat], c.built};
                if (!seen.insert(key).second) continue;
                evals++;
                ctx.own_part(c.own[seat], mine);
                double value = lead(c, mine);
                children.push_back({value, rnd.random(), b, a, mine});
            }
        }
        std::stable_sort(children.begin(), children.end(),
                         [](const Child& x, const Child& y) { return better(x.value, x.tie, y.value, y.tie); });
        if (late && (*late)(evals)) width = 1;
        beam.clear();
        for (int i = 0; i < width && i < (int)children.size(); i++) {
            const Child& ch = children[i];
            State s = nodes[ch.from];
            s.apply(ch.action);
            nodes.push_back(std::move(s));
            parent.push_back(ch.from);
            action.push_back(ch.action);
            node_part.push_back(ch.part);
            beam.push_back((int)nodes.size() - 1);
        }
    }
    if (!keep) return;
    std::stable_sort(done.begin(), done.end(),
                     [](const Done& x, const Done& y) { return better(x.value, x.tie, y.value, y.tie); });
    for (const Done& d : done) {
        Plan plan{d.value, &nodes[d.node], {}};
        for (int k = d.node; parent[k] >= 0; k = parent[k]) plan.actions.push_back(action[k]);
        std::reverse(plan.actions.begin(), plan.actions.end());
        plan.actions.push_back(END);
        plans.push_back(std::move(plan));
    }
}

// -- the games played out -------------------------------------------------------------------------

State resample_hidden(const State& st, int seat, Rng& rng) {
    State out = st;
    int n = st.num_players;
    int8_t pool[40];
    int np = 0;
    for (int i = 0; i < st.deck_n; i++) pool[np++] = st.deck[i];
    bool hidden[4] = {false, false, false, false};
    for (int q = 0; q < n; q++) {
        hidden[q] = q != seat && st.hand[q] >= 0 && !(q == st.to_move && !st.over);
        if (hidden[q]) pool[np++] = (int8_t)st.hand[q];
    }
    std::sort(pool, pool + np);
    rng.shuffle(pool, np);
    for (int q = 0; q < n; q++)
        if (hidden[q]) out.hand[q] = pool[--np];
    for (int i = 0; i < np; i++) out.deck[i] = pool[i];
    out.deck_n = np;
    out.forced.clear();
    out.forced_pos = 0;
    out.rng.state = rng.next64();
    out.history.clear();
    out.keep_history = false;
    return out;
}

double play_out(const EvalContext& ctx, const State& end, int seat, uint64_t sample, int width, int64_t& evals) {
    Rng draw{sample};
    State st = resample_hidden(end, seat, draw);
    PyRandom rnd;
    rnd.seed(sample);
    if (!st.over) st.apply(END);
    std::vector<int32_t> plan;
    size_t next = 0;
    int card = -1;
    PlanSearch search;
    std::vector<int32_t> legal;
    while (!st.over) {
        int p = st.to_move;
        if (next >= plan.size() || st.hand[p] != card || !st.is_legal(plan[next])) {
            search.run(ctx, st, p, width, true, rnd, nullptr);
            evals += search.evals;
            if (search.plans.empty()) {
                st.legal_actions(legal);
                plan.assign(1, legal[0]);
            } else {
                plan = search.plans[0].actions;
            }
            next = 0;
            card = st.hand[p];
        }
        st.apply(plan[next++]);
    }
    double v[4];
    ctx.values(st, false, v);
    return lead_of(v, st.num_players, seat);
}

}  // namespace kb
