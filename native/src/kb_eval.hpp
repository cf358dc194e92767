// Kingdom Builder: the bots' evaluation and turn planner inside the native core, a port of
// builders.ai.eval_kingdom (values, move_values) and of the beam search and games played out of
// builders.ai.planner_kingdom (TurnPlanner._plans, _play_out), with the generator of Python's
// random.Random (its ties), so that either core values and plans alike, to the bit.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "kb.hpp"

namespace kb {

// builders.ai.eval_kingdom.KingdomSettings: the weights of the evaluation and the move heuristic (the
// order of its fields; its TILE_ACTIONS is the planner's), today's defaults
struct Weights {
    double tile_base = 2.0, tile_per_turn = 0.6, location_reach = 1.5, castle_reach = 1.0;
    double lords_lead = 0.8, farmers_low = 0.8, citizens_half = 0.5, frontier = 0.25;
    int frontier_cap = 8;
    double new_row = 0.3, farmers_gap = 0.6;
    double move_castle = 3.0, move_good = 1.0, move_merchants = 1.5, move_knights = 2.0, move_hermits = 1.0;
    double move_citizens = 0.5, move_lords = 2.0, move_farmers = 2.0, move_tile_build = 1.0;
    int tile_actions = 16;  // the planner's TILE_ACTIONS (not one of the 20 below)
    static constexpr int COUNT = 20;
    // from the 20 values in that order (the cap a whole number of at least 1)
    static Weights from(const double* v);
};
// the card codes (builders.kingdom.data.CARDS)
enum Card { FISHERMEN, MINERS, MERCHANTS, WORKERS, DISCOVERERS, KNIGHTS, HERMITS, LORDS, CITIZENS, FARMERS };

// the part of a seat's value that depends on its own settlements alone (_KingdomContext.own_part)
struct OwnPart {
    double gold = 0, shape = 0;
    int counts[4] = {0, 0, 0, 0};
};

// what the evaluation of one map and card set precomputes (_KingdomContext)
struct EvalContext {
    const Board* board;
    int cards[3];
    int ncastles = 0;
    Mask castle_nbr[16];
    Mask castle_union, loc_union;
    Mask loc_nbr[MAX_LOC];
    Mask goods[3];
    int ngoods = 0;
    bool lords = false, discoverers = false;
    Weights w;
    explicit EvalContext(const State& st, const Weights& weights = Weights());
    void own_part(const Mask& own, OwnPart& out) const;
    // per seat: the estimate of its final gold; turn_over: the turn planners' valuation (values)
    void values(const State& st, bool turn_over, double out[4]) const;
    // own parts given per seat (the planner keeps those of the seats that do not move)
    void values_with(const State& st, bool turn_over, const OwnPart* parts, double out[4]) const;
    void move_values(const State& st, const int32_t* acts, int n, double* out) const;
};

bool last_round(const State& st);

// random.Random's generator (MT19937), exactly: random(), getrandbits(k <= 64), seeding by an int
struct PyRandom {
    uint32_t mt[624];
    int index = 624;
    void seed(uint64_t n);
    uint32_t next32();
    double random() {
        uint32_t a = next32() >> 5, b = next32() >> 6;
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
    }
    uint64_t getrandbits(int k);
};

// a plan found by the beam search: its lead, the position before its end, its actions
struct Plan {
    double value;
    const State* state;
    std::vector<int32_t> actions;
};

// TurnPlanner._plans: the positions `seat` can end its turn in, by a beam of `width` (1 once
// `late(evaluations so far)` says the time is up, asked after each step when given). With `keep`,
// `plans` gets them best first (their states owned by `search`); else `best` is the best lead.
struct PlanSearch {
    std::vector<State> nodes;
    std::vector<int> parent;
    std::vector<int32_t> action;
    int64_t evals = 0;
    std::vector<Plan> plans;
    double best = 0;
    void run(const EvalContext& ctx, const State& root, int seat, int width, bool keep, PyRandom& rnd,
             const std::function<bool(int64_t)>* late);
};

// TurnPlanner._play_out and _rollout: seat's final lead in the game played out from `end` with the
// hidden cards drawn from Rng(sample) and every seat playing the best turn a beam of `width` finds
// (ties by random.Random(sample)); adds the positions valued to `evals`
double play_out(const EvalContext& ctx, const State& end, int seat, uint64_t sample, int width, int64_t& evals);

// KingdomState.resample_hidden (without its history: the game played out keeps none)
State resample_hidden(const State& st, int seat, Rng& rng);

}  // namespace kb
