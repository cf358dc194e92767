// The search (builders.ai.mcts.MCTSAgent) inside the native core: the determinizations
// (resample_hidden of either game), the tree walk with UCT and progressive widening, the priors
// (full: the win values after each action; fast: the move heuristic), the decision keys, the finish
// and random playout of a leaf and the backup, a port of MCTSAgent._iterate, _leaf and the games'
// resample_hidden, so that the search handed a native state grows the same tree, with the same
// visits and values to the bit, as handed the Python state (the same doubles in the same order; the
// module is built with -ffp-contract=off). The clock, the turn budgets and the choice of the action
// stay in Python, which runs the iterations in blocks between its looks at the clock.
#pragma once
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "kb.hpp"
#include "kb_eval.hpp"
#include "ma.hpp"
#include "ma_eval.hpp"

namespace mcts {

// what, besides the actions that led to a position, decides its legal actions (the kits' decision_key)
struct Key {
    uint64_t a = 0, b = 0;
    bool operator==(const Key& o) const { return a == o.a && b == o.b; }
};
struct KeyHash {
    size_t operator()(const Key& k) const { return (size_t)(k.a * 0x9E3779B97F4A7C15ULL ^ (k.b + (k.a >> 7))); }
};

// MCTSAgent's settings of a search (after its game's defaults)
struct Options {
    double c = 0.5, scale = 1.0, widen = 2.0;
    int top = 0;
    bool fast = false;  // the move heuristic orders the actions of other decisions than the root's (and own's)
    int own = -1;       // prior own: the seat whose decisions are ordered by the full evaluation
    int rollout = 0, finish = 0;
};

using Values = std::array<double, 4>;

// a node's legal actions of one decision key, best first by the heuristic where it orders them
struct Legal {
    std::vector<int32_t> acts, sorted;
    bool has(int32_t a) const { return std::binary_search(sorted.begin(), sorted.end(), a); }
};

struct Node {
    int player;  // the seat that chose the action leading here
    int64_t visits = 0, avail = 0;
    double value = 0;
    std::vector<std::pair<int32_t, int32_t>> children;  // (action, node), in the order added
    std::unordered_map<int32_t, int32_t> index;         // action -> node
    // full priors: the actions valued, in the order valued, and the win values right after each
    // (`players` a row): a flat table, searched from where the last search found its action
    std::vector<int32_t> prior_actions;
    std::vector<double> prior_values;
    size_t prior_cursor = 0;
    // the row of `action` in the priors, or -1
    int prior_row(int32_t action) {
        size_t n = prior_actions.size();
        for (size_t k = 0; k < n; k++) {
            size_t i = prior_cursor + k < n ? prior_cursor + k : prior_cursor + k - n;
            if (prior_actions[i] == action) {
                prior_cursor = i + 1 < n ? i + 1 : 0;
                return (int)i;
            }
        }
        return -1;
    }
    void clear_priors() {
        std::vector<int32_t>().swap(prior_actions);
        std::vector<double>().swap(prior_values);
        prior_cursor = 0;
    }
    std::unordered_map<Key, Legal, KeyHash> legal;
    explicit Node(int p) : player(p) {}
};

// Kingdom Builder: the evaluation of builders.ai.eval_kingdom with an agent's weights, no margins
struct KBGame {
    using State = kb::State;
    static constexpr double WIN_SCALE = 8.0;
    std::shared_ptr<const kb::Board> board;  // the map the evaluation reads, kept while the tree lives
    kb::EvalContext ctx;
    explicit KBGame(const State& st, const kb::Weights& w = kb::Weights()) : board(st.board), ctx(st, w) {}
    static int player(const State& s) { return s.to_move; }
    static Key key(const State& s) { return {(uint64_t)(int64_t)s.hand[s.to_move], 0}; }
    void move_values(const State& s, const std::vector<int32_t>& acts, std::vector<double>& out) const {
        out.resize(acts.size());
        ctx.move_values(s, acts.data(), (int)acts.size(), out.data());
    }
    void win_values(const State& s, double scale, Values& out) const {
        if (s.over) return returns(s, out);
        double v[4];
        ctx.values(s, false, v);
        logistic(v, s.num_players, scale, out);
    }
    // the evaluation of the positions one action after a node's (full priors): the seats' own parts
    // that the action leaves as they were are those of the node's position (the same doubles)
    kb::Mask near_own[4];
    kb::OwnPart near_part[4];
    void near(const State& s) {
        for (int q = 0; q < s.num_players; q++) {
            near_own[q] = s.own[q];
            ctx.own_part(s.own[q], near_part[q]);
        }
    }
    void win_values_near(const State& s, double scale, Values& out) const {
        if (s.over) return returns(s, out);
        kb::OwnPart parts[4];
        for (int q = 0; q < s.num_players; q++) {
            if (s.own[q] == near_own[q]) parts[q] = near_part[q];
            else ctx.own_part(s.own[q], parts[q]);
        }
        double v[4];
        ctx.values_with(s, false, parts, v);
        logistic(v, s.num_players, scale, out);
    }
    static void returns(const State& s, Values& out) {
        int n = s.num_players, score[4], best = 0, winners = 0;
        for (int p = 0; p < n; p++) {
            score[p] = s.total(p);
            if (p == 0 || score[p] > best) best = score[p];
        }
        for (int p = 0; p < n; p++) winners += score[p] == best;
        double share = 1.0 / winners;
        for (int p = 0; p < n; p++) out[p] = score[p] == best ? share : 0.0;
    }
    static void logistic(const double* v, int n, double scale, Values& out) {
        for (int p = 0; p < n; p++) {
            double x = advantage(v, n, p) / (scale != 0 ? scale : WIN_SCALE);
            out[p] = x > -30 ? 1.0 / (1.0 + std::exp(-x)) : 0.0;
        }
    }
    // KingdomState.resample_hidden
    static State resample(const State& s, int seat, kb::Rng& rng) { return kb::resample_hidden(s, seat, rng); }
    static double advantage(const double* v, int n, int p) {
        double best = 0;
        bool first = true;
        for (int q = 0; q < n; q++)
            if (q != p && (first || v[q] > best)) { best = v[q]; first = false; }
        return v[p] - best;
    }
};

// The Builders: builders.ai.eval_middle_ages with an agent's weights, the kit's margins and late factor
struct MAGame {
    using State = ma::State;
    static constexpr double WIN_SCALE = 2.5, WIN_MARGIN = 0.02, END_MARGIN = 0.002;
    ma::EvalContext ctx;
    explicit MAGame(const ma::Settings& w) : ctx(w) {}
    static int player(const State& s) { return s.cur; }
    static Key key(const State& s) {
        // (*brow, -1, *wrow): each row's codes, 12 bits each, and its length
        Key k;
        for (int16_t c : s.brow) k.a = (k.a << 12) | (uint64_t)(c & 0xFFF);
        k.a = (k.a << 4) | (uint64_t)s.brow.n;
        for (int16_t c : s.wrow) k.b = (k.b << 12) | (uint64_t)(c & 0xFFF);
        k.b = (k.b << 4) | (uint64_t)s.wrow.n;
        return k;
    }
    void move_values(const State&, const std::vector<int32_t>&, std::vector<double>&) const {}
    void win_values(const State& s, double scale, Values& out) const {
        int n = s.num_players;
        if (s.over) {
            for (int p = 0; p < n; p++) out[p] = ma::returns_of(s, p);
            return;
        }
        double v[4];
        ctx.values(s, v);
        bool end = ma::end_triggered(s);
        double margin = end ? END_MARGIN : WIN_MARGIN;
        double factor = end ? 1.0 : ctx.late_factor(s);
        for (int p = 0; p < n; p++) {
            double x = KBGame::advantage(v, n, p) / (scale != 0 ? scale : WIN_SCALE);
            double w = x > -30 ? 1.0 / (1.0 + std::exp(-x)) : 0.0;
            w = margin + (1.0 - 2.0 * margin) * w;
            out[p] = w * factor;
        }
    }
    void near(const State&) {}
    void win_values_near(const State& s, double scale, Values& out) const { win_values(s, scale, out); }
    // MiddleAgesState.resample_hidden
    static State resample(const State& s, int, kb::Rng& rng) {
        State o = s;
        if (o.bdeck.n) {
            int8_t* below = o.bdeck.v;
            std::sort(below, below + o.bdeck.n - 1);
            rng.shuffle(below, o.bdeck.n - 1);
        }
        std::sort(o.wdeck.v, o.wdeck.v + o.wdeck.n);
        rng.shuffle(o.wdeck.v, o.wdeck.n);
        o.forced_card = -2;
        o.history.clear();
        o.keep_history = false;
        return o;
    }
};

// one search tree and the settings it grows with (MCTSAgent._iterate and _leaf)
template <class G> struct Tree {
    using State = typename G::State;
    G game;
    Options o;
    int players;
    std::vector<Node> nodes;
    int root = 0;
    kb::Rng rng;
    std::vector<int32_t> buf, untried;
    std::vector<double> vals;
    std::vector<int> path, order;

    Tree(G g, const Options& options, int num_players) : game(std::move(g)), o(options), players(num_players) {
        nodes.emplace_back(-1);
    }

    // `count` iterations from determinizations of `state` for `seat` drawn from a generator of state
    // `rng_state` (MCTSAgent._search's loop); with `first` >= 0 each starts with that action, into the
    // root's child of it (which must exist); returns the generator's state after them
    uint64_t run(const State& state, int seat, int64_t count, uint64_t rng_state, int32_t first = -1) {
        rng.state = rng_state;
        int start = root;
        if (first >= 0) start = nodes[root].index.at(first);
        Values rewards;
        State base = state;  // without its history: the determinizations keep none
        base.history.clear();
        base.history.shrink_to_fit();
        base.keep_history = false;
        for (int64_t i = 0; i < count; i++) {
            State det = G::resample(base, seat, rng);
            if (first >= 0) {
                if (!det.is_legal(first)) throw std::invalid_argument("run: the first action is not legal");
                det.apply(first);
                iterate(det, start, rewards);
                nodes[start].value += rewards[nodes[start].player];
            } else {
                iterate(det, start, rewards);
            }
        }
        return rng.state;
    }

    const Legal& legal_of(int node, const State& det, bool full) {
        Node& nd = nodes[node];
        Key key = G::key(det);
        auto it = nd.legal.find(key);
        if (it != nd.legal.end()) return it->second;
        Legal L;
        det.legal_actions(L.acts);
        if (o.fast && o.widen != 0 && !full && L.acts.size() > 1) {
            // sorted(zip(-values, index, action)): best first, ties in legal order
            game.move_values(det, L.acts, vals);
            order.resize(L.acts.size());
            for (size_t i = 0; i < order.size(); i++) order[i] = (int)i;
            std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return -vals[x] < -vals[y]; });
            std::vector<int32_t> acts(L.acts.size());
            for (size_t i = 0; i < order.size(); i++) acts[i] = L.acts[order[i]];
            L.acts.swap(acts);
        }
        L.sorted = L.acts;
        std::sort(L.sorted.begin(), L.sorted.end());
        return nd.legal.emplace(key, std::move(L)).first->second;
    }

    void iterate(State& det, int top_node, Values& rewards) {
        path.clear();
        int node = top_node;
        bool have = false;
        while (!det.over) {
            int p = G::player(det);
            bool full = node == top_node || p == o.own;
            const Legal& L = legal_of(node, det, full);
            Node* nd = &nodes[node];
            bool heuristic = o.fast && !full;
            size_t nch = nd->children.size(), na = L.acts.size();
            bool expand;
            if (o.widen != 0)
                expand = (int64_t)nch < 1 + (int64_t)(o.widen * std::sqrt((double)nd->visits)) && nch < na;
            else
                expand = nch < na;
            if (expand && node == top_node && o.top && (int64_t)nch >= o.top) expand = false;
            if (!expand) {
                expand = true;
                for (auto& ch : nd->children)
                    if (L.has(ch.first)) { expand = false; break; }
            }
            int32_t a = 0;
            bool found = false, prior = false;
            Values prior_value{};
            if (expand) {
                if (o.widen != 0 && heuristic) {
                    for (int32_t b : L.acts)
                        if (!nd->index.count(b)) { a = b; found = true; break; }
                } else {
                    untried.clear();
                    for (int32_t b : L.acts)
                        if (!nd->index.count(b)) untried.push_back(b);
                    if (untried.empty()) {
                    } else if (o.widen == 0) {
                        a = untried.size() > 1 ? untried[rng.randbelow(untried.size())] : untried[0];
                        found = true;
                    } else {
                        double best_v = -1.0;
                        bool near = false;
                        for (int32_t b : untried) {
                            int row = nd->prior_row(b);
                            if (row < 0) {
                                if (!near) {
                                    game.near(det);
                                    near = true;
                                }
                                State child = det;
                                child.apply(b);
                                Values pv{};
                                game.win_values_near(child, o.scale, pv);
                                row = (int)nd->prior_actions.size();
                                nd->prior_actions.push_back(b);
                                nd->prior_values.insert(nd->prior_values.end(), pv.begin(), pv.begin() + players);
                            }
                            const double* pv = nd->prior_values.data() + (size_t)row * players;
                            if (pv[p] > best_v) {
                                a = b;
                                found = prior = true;
                                best_v = pv[p];
                                std::copy(pv, pv + players, prior_value.begin());
                            }
                        }
                    }
                }
            }
            if (found) {
                for (auto& ch : nd->children)
                    if (L.has(ch.first)) nodes[ch.second].avail++;
                int child = (int)nodes.size();
                nd->index.emplace(a, child);
                nd->children.emplace_back(a, child);
                nodes.emplace_back(p);  // nd and L are not used after this
                nodes.back().avail = 1;
                det.apply(a);
                path.push_back(child);
                if (prior && !o.rollout && !o.finish) {
                    rewards = prior_value;
                    have = true;
                }
                break;
            }
            int best = -1;
            int32_t best_action = 0;
            double best_score = -std::numeric_limits<double>::infinity();
            for (auto& ch : nd->children) {
                if (!L.has(ch.first)) continue;
                Node& c = nodes[ch.second];
                c.avail++;
                double score = c.value / (double)c.visits + o.c * std::sqrt(std::log((double)c.avail) / (double)c.visits);
                if (score > best_score) {
                    best = ch.second;
                    best_score = score;
                    best_action = ch.first;
                }
            }
            det.apply(best_action);
            path.push_back(best);
            node = best;
        }
        if (!have) leaf(det, rewards);
        nodes[top_node].visits++;
        for (int id : path) {
            Node& nd = nodes[id];
            nd.visits++;
            nd.value += rewards[nd.player];
        }
    }

    void leaf(State& det, Values& out) {
        if (o.finish && o.fast) {
            int p = G::player(det);
            for (int k = 0; k < o.finish; k++) {
                if (det.over || G::player(det) != p) break;
                det.legal_actions(buf);
                game.move_values(det, buf, vals);
                size_t best = 0;
                for (size_t i = 1; i < buf.size(); i++)
                    if (vals[i] > vals[best]) best = i;
                if (vals[best] <= 0) break;
                det.apply(buf[best]);
            }
        }
        for (int k = 0; k < o.rollout; k++) {
            if (det.over) break;
            det.legal_actions(buf);
            det.apply(buf[rng.randbelow(buf.size())]);
        }
        game.win_values(det, o.scale, out);
    }

    // the subtree of the root's child of `action` becomes the tree (its priors dropped: a root
    // orders its actions by the full evaluation); false when the root has no such child
    bool reroot(int32_t action) {
        auto it = nodes[root].index.find(action);
        if (it == nodes[root].index.end()) return false;
        root = it->second;
        nodes[root].clear_priors();
        return true;
    }
};

}  // namespace mcts
