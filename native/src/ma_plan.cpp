// The Builders: Middle Ages: the turn planner's searches inside the native core (see ma_eval.hpp), a
// port of builders.ai.planner_middle_ages (MiddleAgesPlanner._turn, _answered, _others_answer).
#include <algorithm>
#include <set>
#include <stdexcept>

#include "ma_eval.hpp"

namespace ma {

namespace {

bool better(double v1, double r1, double v2, double r2) { return v1 > v2 || (v1 == v2 && r1 > r2); }

// a position valued in a step: its value, its tie-break, where it comes from
struct Child {
    double value, tie;
    int from;
    int32_t action;
};

}  // namespace

bool Planner::turn(const State& root, int seat, int width, bool stop, bool keep, std::vector<Turn>& out) {
    out.clear();
    std::vector<State> nodes{root};
    nodes[0].keep_history = false;
    nodes[0].history.clear();
    std::vector<int> parent{-1};
    std::vector<int32_t> action{0};
    std::vector<int> beam{0};
    std::set<std::vector<int32_t>> seen;
    std::vector<Child> children;
    std::vector<int32_t> legal, key;
    Turn best{0, 0, State(), {}};
    int best_node = -2;
    int32_t best_action = 0;
    bool found = false;
    State c;
    auto path = [&](int node, std::vector<int32_t>& acts) {
        acts.clear();
        for (int k = node; parent[k] >= 0; k = parent[k]) acts.push_back(action[k]);
        std::reverse(acts.begin(), acts.end());
    };
    std::vector<int32_t> acts;
    while (!beam.empty()) {
        children.clear();
        for (int b : beam) {
            nodes[b].legal_actions(legal);
            path(b, acts);
            for (int32_t a : legal) {
                key = acts;
                key.push_back(a);
                std::sort(key.begin(), key.end());
                if (!seen.insert(key).second) continue;
                c = nodes[b];
                c.apply(a);
                evals++;
                double value = ctx.value(c, seat);
                double tie = rnd.random();
                if (c.over || c.cur != seat) {
                    if (keep) {
                        Turn t{value, tie, c, acts};
                        t.actions.push_back(a);
                        out.push_back(std::move(t));
                    } else if (!found || better(value, tie, best.value, best.tie)) {
                        best.value = value;
                        best.tie = tie;
                        best.state = c;
                        best_node = b;
                        best_action = a;
                        found = true;
                    }
                } else {
                    children.push_back({value, tie, b, a});
                }
            }
        }
        std::stable_sort(children.begin(), children.end(),
                         [](const Child& x, const Child& y) { return better(x.value, x.tie, y.value, y.tie); });
        if (late && (*late)(evals)) {
            if (stop) {
                out.clear();
                return false;
            }
            width = 1;
        }
        beam.clear();
        for (int i = 0; i < width && i < (int)children.size(); i++) {
            const Child& ch = children[i];
            State s = nodes[ch.from];
            s.apply(ch.action);
            nodes.push_back(std::move(s));
            parent.push_back(ch.from);
            action.push_back(ch.action);
            beam.push_back((int)nodes.size() - 1);
        }
    }
    if (keep) {
        std::stable_sort(out.begin(), out.end(),
                         [](const Turn& x, const Turn& y) { return better(x.value, x.tie, y.value, y.tie); });
    } else if (found) {
        path(best_node, best.actions);
        best.actions.push_back(best_action);
        out.push_back(std::move(best));
    }
    return true;
}

bool Planner::others_answer(State& st, int seat, int reply) {
    std::vector<Turn> answers;
    while (!st.over && st.cur != seat) {
        if (!turn(st, st.cur, reply, true, false, answers)) return false;
        if (answers.empty()) throw std::runtime_error("the planner found no turn");
        st = answers[0].state;
    }
    return true;
}

bool Planner::answered(const State& end, int seat, int reply, int depth, double& score) {
    State st = end;
    st.keep_history = false;
    st.history.clear();
    if (!others_answer(st, seat, reply)) return false;
    if (depth == 1 || st.over) {
        score = ctx.value(st, seat);
        return true;
    }
    std::vector<Turn> mine;
    if (!turn(st, seat, reply, true, false, mine)) return false;
    if (mine.empty()) throw std::runtime_error("the planner found no turn");
    if (depth == 2) {
        score = mine[0].value;
        return true;
    }
    st = mine[0].state;
    if (!others_answer(st, seat, reply)) return false;
    score = ctx.value(st, seat);
    return true;
}

}  // namespace ma
