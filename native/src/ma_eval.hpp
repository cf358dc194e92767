// The Builders: Middle Ages: the bots' work inside the native core, a port of
// builders.ai.eval_middle_ages (values, last_turn_gain, finished_seats, end_triggered, late_factor),
// builders.ai.evaluate.win_value with The Builders' kit, and builders.ai.planner_middle_ages's
// searches (MiddleAgesPlanner._value, _turn, _answered, _others_answer). The numbers are the Python
// ones to the bit: the same doubles added in the same order (the module is built with
// -ffp-contract=off).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "kb_eval.hpp"  // kb::PyRandom, the generator of the ties
#include "ma.hpp"

namespace ma {

// MiddleAgesSettings, an agent's weights of the evaluation (the order of its fields)
struct Settings {
    double coin = 0.12, action = 0.25, staffed = 0.40, staffed_progress = 0.45, open = 0.02, progress = 0.40,
           row = 0.5, spare_unit = 0.05, machine_unit = 0.2, short_ = 0.125, horizon = 2.5,
           unit_actions = 1 / 3.6, pace = 2.0, late_round = 30, late_decay = 0.8, late_coin = 0.0;
    bool last_turn = true;
    static constexpr int COUNT = 17;  // the fields, last_turn last
    static Settings from(const std::vector<double>& w);
};

// what an open site still needs of its requirement: the units in all, the site, the units of each kind
struct SiteNeed {
    int need, s, n[4];
};

// the evaluation with an agent's weights and the card tables valued with them (_ma_tables)
struct EvalContext {
    Settings w;
    int req[NUM_CARDS][4], prod[NUM_CARDS][4], total[NUM_CARDS];
    double site_value[NUM_CARDS];
    explicit EvalContext(const Settings& settings);
    void values(const State& st, double out[4]) const;       // eval_middle_ages.values
    double last_turn_gain(const State& st, int p) const;     // eval_middle_ages.last_turn_gain
    double late_factor(const State& st) const;               // eval_middle_ages.late_factor
    double win_value(const State& st, double advantage) const;  // evaluate.win_value (the kit's scale)
    double value(const State& st, int seat) const;           // MiddleAgesPlanner._value
    int site_needs(const State& st, int p, SiteNeed* out) const;
};

bool end_triggered(const State& st);
void finished_seats(const State& st, bool out[4]);
// the game's returns (GameState.returns: 1/k for each of k winners by score, buildings and machines, coins)
double returns_of(const State& st, int seat);

// a turn found by the search: its value for the seat, its tie-break, the position after it, its actions
struct Turn {
    double value, tie;
    State state;
    std::vector<int32_t> actions;
};

// MiddleAgesPlanner's searches with its beam widths and depth; `late(positions valued so far in this
// call)` says whether the planner's deadline has passed (asked where the Python asks its clock; null:
// no deadline); `evals` counts the positions valued
struct Planner {
    const EvalContext& ctx;
    kb::PyRandom& rnd;
    const std::function<bool(int64_t)>* late;
    int64_t evals = 0;
    // _turn: the turns of `seat` from `root`, best first (all of them with `keep`, else the best
    // only); false when `stop` and the deadline passed (nothing found)
    bool turn(const State& root, int seat, int width, bool stop, bool keep, std::vector<Turn>& out);
    // _others_answer: false when the deadline passed
    bool others_answer(State& st, int seat, int reply);
    // _answered: false when the deadline passed
    bool answered(const State& end, int seat, int reply, int depth, double& score);
};

}  // namespace ma
