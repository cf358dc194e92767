// The Builders: Middle Ages: the evaluation inside the native core (see ma_eval.hpp), a port of
// builders.ai.eval_middle_ages and of builders.ai.evaluate.win_value with The Builders' kit.
#include "ma_eval.hpp"

#include <algorithm>
#include <cmath>

namespace ma {

namespace {

// The Builders' kit (builders.ai.kit_middle_ages.KIT): win_scale, win_margin, end_margin
constexpr double WIN_SCALE = 2.5, WIN_MARGIN = 0.02, END_MARGIN = 0.002;

void unpack(int64_t packed, int out[4]) {
    for (int k = 0; k < 4; k++) out[k] = (int)((packed >> (8 * k)) & 0xFF);
}

}  // namespace

Settings Settings::from(const std::vector<double>& v) {
    Settings s;
    double* f[] = {&s.coin, &s.action, &s.staffed, &s.staffed_progress, &s.open, &s.progress, &s.row,
                   &s.spare_unit, &s.machine_unit, &s.short_, &s.horizon, &s.unit_actions, &s.pace,
                   &s.late_round, &s.late_decay, &s.late_coin};
    for (int i = 0; i < COUNT - 1; i++) *f[i] = v[i];
    s.last_turn = v[COUNT - 1] != 0.0;
    return s;
}

// _ma_tables
EvalContext::EvalContext(const Settings& settings) : w(settings) {
    for (int c = 0; c < NUM_CARDS; c++) {
        unpack(T.req[c], req[c]);
        unpack(T.prod[c], prod[c]);
        int r = req[c][0] + req[c][1] + req[c][2] + req[c][3];
        total[c] = std::max(1, r);
        int units = prod[c][0] + prod[c][1] + prod[c][2] + prod[c][3];
        site_value[c] = T.vp[c] + w.coin * T.reward[c] + (T.machine[c] ? w.machine_unit * units : 0.0);
    }
}

bool end_triggered(const State& st) { return st.final_round || st.vp[st.cur] >= END_TRIGGER_VP; }

void finished_seats(const State& st, bool out[4]) {
    int n = st.num_players;
    for (int q = 0; q < n; q++) out[q] = st.over;
    if (st.over || !(st.final_round || st.vp[st.cur] >= END_TRIGGER_VP)) return;
    auto mod = [n](int x) { return ((x % n) + n) % n; };
    int pos = mod(st.cur - st.start);
    for (int q = 0; q < n; q++) out[q] = q != st.cur && mod(q - st.start) < pos;
}

double returns_of(const State& st, int seat) {
    // scoring.final_result's keys: (score, buildings + machines, coins)
    int n = st.num_players, key[4][3], winners = 0;
    for (int p = 0; p < n; p++) {
        int b[3];
        st.breakdown(p, b);
        key[p][0] = b[0] + b[1] + b[2];
        key[p][1] = b[0] + b[1];
        key[p][2] = st.coins[p];
    }
    int best = 0;
    auto less = [&](int a, int b) {
        return std::lexicographical_compare(key[a], key[a] + 3, key[b], key[b] + 3);
    };
    for (int p = 1; p < n; p++)
        if (less(best, p)) best = p;
    bool mine = false;
    for (int p = 0; p < n; p++)
        if (!less(p, best) && !less(best, p)) {
            winners++;
            mine |= p == seat;
        }
    return mine ? 1.0 / winners : 0.0;
}

// _site_need of each open site of seat p, fewest units first (then by site): how many
int EvalContext::site_needs(const State& st, int p, SiteNeed* out) const {
    int n = 0;
    for (int8_t s : st.sites[p]) {
        int64_t g = st.progress[s];
        SiteNeed e{0, s, {}};
        for (int k = 0; k < 4; k++) {
            int r = req[s][k];
            e.n[k] = r - std::min((int)((g >> (8 * k)) & 0xFF), r);
            e.need += e.n[k];
        }
        out[n++] = e;
    }
    std::sort(out, out + n, [](const SiteNeed& a, const SiteNeed& b) {
        return a.need != b.need ? a.need < b.need : a.s < b.s;  // a seat's sites differ
    });
    return n;
}

double EvalContext::last_turn_gain(const State& st, int p) const {
    int coins = st.coins[p], actions = FREE_ACTIONS;
    int8_t free[64];
    int nfree = st.crew[p].n;
    for (int i = 0; i < nfree; i++) free[i] = st.crew[p].v[i];
    double gained = 0.0;
    SiteNeed plans[48];
    int np = site_needs(st, p, plans);
    for (int i = 0; i < np; i++) {
        int need[4] = {plans[i].n[0], plans[i].n[1], plans[i].n[2], plans[i].n[3]};
        int s = plans[i].s;
        int8_t chosen[64], pool[64];
        int nchosen = 0, npool = nfree;
        for (int j = 0; j < nfree; j++) pool[j] = free[j];
        auto any = [&]() { return need[0] || need[1] || need[2] || need[3]; };
        while (any() && npool) {
            // the first of the pool with the most units it gives of the need, then the lowest wage
            int bi = -1, bu = 0, bw = 0;
            for (int j = 0; j < npool; j++) {
                int c = pool[j], u = 0;
                for (int k = 0; k < 4; k++) u += std::min(prod[c][k], need[k]);
                if (bi < 0 || u > bu || (u == bu && -T.cost[c] > bw)) { bi = j; bu = u; bw = -T.cost[c]; }
            }
            if (!bu) break;
            int w = pool[bi];
            for (int j = bi; j < npool - 1; j++) pool[j] = pool[j + 1];
            npool--;
            chosen[nchosen++] = (int8_t)w;
            for (int k = 0; k < 4; k++) need[k] = std::max(0, need[k] - prod[w][k]);
        }
        if (any()) continue;
        int k = nchosen, acts = k * (k + 1) / 2, pay = 0;
        for (int j = 0; j < k; j++) pay += T.cost[chosen[j]];
        int buy = std::max(0, acts - actions);
        int cost = pay + ACTION_PRICE * buy;
        if (cost > coins) continue;
        coins += T.reward[s] - cost;
        actions -= acts - buy;
        for (int j = 0; j < k; j++) {
            for (int q = 0; q < nfree; q++)
                if (free[q] == chosen[j]) {
                    for (int r = q; r < nfree - 1; r++) free[r] = free[r + 1];
                    nfree--;
                    break;
                }
        }
        gained += T.vp[s];
    }
    static const int takes[4] = {0, 1, 3, 6};
    coins += takes[std::min(actions, 3)];
    return gained + 0.1 * coins;
}

double EvalContext::late_factor(const State& st) const {
    double late = (double)(st.turn / st.num_players) - w.late_round + 1;
    return late > 0 ? std::pow(w.late_decay, late) : 1.0;
}

double EvalContext::win_value(const State& st, double advantage) const {
    double x = advantage / WIN_SCALE;
    double v = x > -30 ? 1.0 / (1.0 + std::exp(-x)) : 0.0;
    double margin, factor;
    if (end_triggered(st)) {
        margin = END_MARGIN;
        factor = 1.0;
    } else {
        margin = WIN_MARGIN;
        factor = late_factor(st);
    }
    v = margin + (1.0 - 2.0 * margin) * v;
    return v * factor;
}

double EvalContext::value(const State& st, int seat) const {
    if (st.over) return returns_of(st, seat);
    double v[4];
    values(st, v);
    double best = 0;
    bool first = true;
    for (int q = 0; q < st.num_players; q++)
        if (q != seat && (first || v[q] > best)) { best = v[q]; first = false; }
    return win_value(st, v[seat] - best);
}

void EvalContext::values(const State& st, double out[4]) const {
    const Settings& s = w;
    int n = st.num_players;
    int r0 = 0, r1 = 0, r2 = 0, r3 = 0;
    if (!st.over)
        for (int16_t code : st.wrow) {
            const int* q = prod[code - RECRUIT];
            r0 += q[0]; r1 += q[1]; r2 += q[2]; r3 += q[3];
        }
    bool done[4];
    finished_seats(st, done);
    bool final = end_triggered(st);
    int top = 0;
    for (int q = 0; q < n; q++) top = std::max(top, st.vp[q]);
    int turns = 1 + (int)((double)std::max(0, END_TRIGGER_VP - top) / s.pace);
    double coin = (double)(st.turn / n) < s.late_round ? s.coin : s.late_coin;
    for (int p = 0; p < n; p++) {
        if (done[p]) {
            out[p] = (double)(st.vp[p] + st.coins[p] / 10) + 0.001 * st.coins[p];
            continue;
        }
        if (final && p == st.cur) {
            double v = st.vp[p] + 0.1 * st.coins[p] + 0.2 * st.actions;
            if (s.last_turn && st.actions == FREE_ACTIONS && !st.touched.n) {
                double g = st.vp[p] + last_turn_gain(st, p);
                if (g > v) v = g;
            }
            out[p] = v;
            continue;
        }
        if (final && s.last_turn) {
            out[p] = st.vp[p] + last_turn_gain(st, p);
            continue;
        }
        int budget = (p == st.cur ? st.actions : 0) + 3 * turns;
        double v = st.vp[p] + coin * st.coins[p];
        double coins = st.coins[p];
        double short_ = 0, queue = 0.0;
        int k0 = 0, k1 = 0, k2 = 0, k3 = 0, cost = 0;
        for (int8_t c : st.crew[p]) {
            const int* q = prod[c];
            k0 += q[0]; k1 += q[1]; k2 += q[2]; k3 += q[3];
            cost += T.cost[c];
        }
        int units = k0 + k1 + k2 + k3;
        double unit_wage = units ? (double)cost / units : 2.0;
        int w0 = 0, w1 = 0, w2 = 0, w3 = 0;
        if (p == st.cur) { w0 = r0; w1 = r1; w2 = r2; w3 = r3; }
        SiteNeed needs[48];
        int nn = site_needs(st, p, needs);
        for (int i = 0; i < nn; i++) {
            int need = needs[i].need, site = needs[i].s;
            int n0 = needs[i].n[0], n1 = needs[i].n[1], n2 = needs[i].n[2], n3 = needs[i].n[3];
            double covered = 1.0 - (double)need / total[site];
            double value = site_value[site];
            double share = s.open + s.progress * covered;
            double staffed, acts;
            if (need) {
                int c0 = std::min(n0, k0), c1 = std::min(n1, k1), c2 = std::min(n2, k2), c3 = std::min(n3, k3);
                k0 -= c0; k1 -= c1; k2 -= c2; k3 -= c3;
                int m0 = n0 - c0, m1 = n1 - c1, m2 = n2 - c2, m3 = n3 - c3;
                int d0 = std::min(m0, w0), d1 = std::min(m1, w1), d2 = std::min(m2, w2), d3 = std::min(m3, w3);
                w0 -= d0; w1 -= d1; w2 -= d2; w3 -= d3;
                int cs = c0 + c1 + c2 + c3;
                staffed = ((double)cs + s.row * (d0 + d1 + d2 + d3)) / need;
                double pay = unit_wage * need * staffed;
                acts = s.unit_actions * (2 * need - cs);
                if (pay > coins) {
                    short_ += pay - coins;
                    acts += 0.5 * (pay - coins);
                    coins = 0;
                } else {
                    coins -= pay;
                }
            } else {
                staffed = 1.0;
                acts = 0.0;
            }
            share += staffed * (s.staffed - s.open + (s.staffed_progress - s.progress) * covered);
            queue += acts;
            if (s.horizon != 0.0) share /= 1.0 + queue / s.horizon;
            if (queue > budget) share *= budget / queue;
            v += value * share;
        }
        v += s.spare_unit * (k0 + k1 + k2 + k3) - s.short_ * short_;
        v += s.action * (p == st.cur ? st.actions : 3);
        out[p] = v;
    }
}

}  // namespace ma
