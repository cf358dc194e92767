// The Builders: Middle Ages: the native core, a port of builders.middle_ages.state (legal_actions,
// apply), rules.can_gain_vp and scoring. The card tables come from builders.middle_ages.cards
// (ma::set_tables) so that the numbers are the Python engine's own.
#pragma once
#include <cstdint>
#include <vector>

#include "history.hpp"

namespace ma {

constexpr int NUM_CARDS = 84;
constexpr int END = 0, BUY = 1, COINS = 1, OPEN = 256, RECRUIT = 512, SEND = 1024;
constexpr int FREE_ACTIONS = 3, ACTION_PRICE = 5, START_COINS = 10, END_TRIGGER_VP = 17;
constexpr int ROW_SIZE = 5;
constexpr int64_t GUARD = 0x80808080LL;

struct Tables {
    int cost[NUM_CARDS];
    int64_t prod[NUM_CARDS], req[NUM_CARDS];
    int reward[NUM_CARDS], vp[NUM_CARDS];
    bool machine[NUM_CARDS];
};
extern Tables T;
void set_tables(const std::vector<int>& cost, const std::vector<int64_t>& prod, const std::vector<int64_t>& req,
                const std::vector<int>& reward, const std::vector<int>& vp, const std::vector<int>& machines);

// a list kept in place (copied with the state, without an allocation)
template <class T, int N> struct Small {
    T v[N];
    int n = 0;
    void push(T x) { v[n++] = x; }
    int find(T x) const { for (int i = 0; i < n; i++) if (v[i] == x) return i; return -1; }
    bool has(T x) const { return find(x) >= 0; }
    void erase_at(int i) { for (int j = i; j < n - 1; j++) v[j] = v[j + 1]; n--; }
    void remove(T x) { int i = find(x); if (i >= 0) erase_at(i); }
    T* begin() { return v; }
    T* end() { return v + n; }
    const T* begin() const { return v; }
    const T* end() const { return v + n; }
};

// a position's legal actions in MiddleAgesState.legal_actions' order, not all written out: the first
// ones (end and buy, or buy, the coins and the rows) in `head`, then the sends, each site of `open`
// with each worker of `ready`; their count and the action at an index (a random pick needs no list)
struct Legal {
    int32_t head[16];
    int8_t ready[64], open[48];
    int nhead, nready, nopen;
    int count() const { return nhead + nopen * nready; }
    int32_t at(int k) const {
        if (k < nhead) return head[k];
        k -= nhead;
        int i = k / nready;
        return SEND + (open[i] << 7) + ready[k - i * nready];
    }
    // all of them, in order, from o on (count() of them); returns the end
    template <class O, class F> O* write(O* o, F&& make) const {
        for (int k = 0; k < nhead; k++) *o++ = make(head[k]);
        for (int i = 0; i < nopen; i++) {
            int32_t base = SEND + (open[i] << 7);
            for (int j = 0; j < nready; j++) *o++ = make(base + ready[j]);
        }
        return o;
    }
};

// an error the Python side turns into the engine's message: the recorded draw is not in the deck
struct ForcedError { bool building; };

struct State {
    int num_players = 2, start = 0, cur = 0, actions = FREE_ACTIONS, turn = 0;
    bool over = false, final_round = false;
    int coins[4] = {0, 0, 0, 0}, vp[4] = {0, 0, 0, 0};
    Small<int8_t, 64> crew[4];
    Small<int8_t, 48> sites[4], done[4];
    // the workers on the open sites, in the order they were sent, as site * 128 + worker (each site's
    // MiddleAgesState.placed is its entries in order): one short list, not a list per card
    Small<int16_t, 96> placed;
    bool has_placed[NUM_CARDS];
    // the resources on each site, packed as in cards.pack (all the cards together produce 43 of
    // each: the four amounts stay below 128, within 32 bits)
    uint32_t progress[NUM_CARDS];
    int16_t sent[NUM_CARDS];            // this turn's sends to each site
    Small<int8_t, 48> touched;
    Small<int16_t, ROW_SIZE> brow{}, wrow{};  // action codes (all five set: Legal copies them whole)
    Small<int8_t, 48> bdeck, wdeck;     // top card last
    int64_t unrecruited = 0;
    // actions >= 0; a drawn card c as -(c + 1); shared with the state's copies (see history.hpp)
    hist::History history;
    bool keep_history = true;
    int forced_card = -2;               // the next draw (replay): a card index, -1 none such, -2 nothing forced

    State() {
        for (int c = 0; c < NUM_CARDS; c++) { has_placed[c] = false; progress[c] = 0; sent[c] = 0; }
    }
    // MiddleAgesState.__init__ of a checked setup: the decks top first (their first ROW_SIZE cards
    // dealt to the rows), each seat's apprentice
    void start_setup(int players, int start_player, const std::vector<int>& buildings,
                     const std::vector<int>& workers, const std::vector<int>& apprentices);
    void place(int site, int worker) { placed.push((int16_t)(site * 128 + worker)); }
    // the workers on `site` handed to `to` (push), in the order they were sent, and taken off it
    template <class To> void unplace(int site, To& to) {
        int k = 0;
        for (int i = 0; i < placed.n; i++) {
            int16_t e = placed.v[i];
            if (e / 128 == site) to.push((int8_t)(e % 128));
            else placed.v[k++] = e;
        }
        placed.n = k;
    }
    void legal(Legal& out) const;
    void legal_actions(std::vector<int32_t>& out) const;
    bool is_legal(int64_t action) const;
    // play a legal action; returns 1 if it consumed the forced draw; throws ForcedError (nothing changed)
    int apply(int32_t action);
    bool can_gain_vp() const;
    void breakdown(int seat, int out[3]) const;  // buildings, machines, coins
};

// setup.random_setup(players, seed)'s draws (seat 0 starts): `buildings` (the building deck), then
// `apprentices` (seat i gets the i-th), then the apprentices left and `others` (the other workers)
// shuffled into the worker deck, each shuffled in place with Rng(seed); `workers` is the worker deck
void random_draws(int players, uint64_t seed, std::vector<int>& buildings, std::vector<int>& apprentices,
                  const std::vector<int>& others, std::vector<int>& workers);

}  // namespace ma
