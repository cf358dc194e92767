// Kingdom Builder: the native core, a port of builders.kingdom (state.py, rules.py, tiles.py,
// scoring.py, setup.py) and builders.core.rng. Every list comes out in the Python engine's order.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace kb {

constexpr int CELLS = 400;
constexpr int WORDS = 7;
constexpr int BUILD = 0, BARN = 6, HARBOR = 7, PADDOCK = 8, END_CODE = 9;
constexpr int SHIFT = 18, SRC_SHIFT = 9;
constexpr int32_t END = END_CODE << SHIFT;
constexpr int GRASS = 0, DESERT = 2, WATER = 5, MOUNTAIN = 6, CASTLE = 7, LOCATION = 8;
constexpr int MAX_LOC = 32;

struct Mask {
    uint64_t w[WORDS] = {0, 0, 0, 0, 0, 0, 0};
    bool any() const {
        uint64_t a = 0;
        for (int i = 0; i < WORDS; i++) a |= w[i];
        return a != 0;
    }
    int count() const {
        int n = 0;
        for (int i = 0; i < WORDS; i++) n += __builtin_popcountll(w[i]);
        return n;
    }
    bool test(int h) const { return (w[h >> 6] >> (h & 63)) & 1; }
    void set(int h) { w[h >> 6] |= uint64_t(1) << (h & 63); }
    void clear(int h) { w[h >> 6] &= ~(uint64_t(1) << (h & 63)); }
    int lowest() const {
        for (int i = 0; i < WORDS; i++)
            if (w[i]) return i * 64 + __builtin_ctzll(w[i]);
        return -1;
    }
    Mask operator&(const Mask& o) const { Mask r; for (int i = 0; i < WORDS; i++) r.w[i] = w[i] & o.w[i]; return r; }
    Mask operator|(const Mask& o) const { Mask r; for (int i = 0; i < WORDS; i++) r.w[i] = w[i] | o.w[i]; return r; }
    Mask operator^(const Mask& o) const { Mask r; for (int i = 0; i < WORDS; i++) r.w[i] = w[i] ^ o.w[i]; return r; }
    Mask operator~() const;
    Mask& operator|=(const Mask& o) { for (int i = 0; i < WORDS; i++) w[i] |= o.w[i]; return *this; }
    Mask& operator&=(const Mask& o) { for (int i = 0; i < WORDS; i++) w[i] &= o.w[i]; return *this; }
    Mask& operator^=(const Mask& o) { for (int i = 0; i < WORDS; i++) w[i] ^= o.w[i]; return *this; }
    bool operator==(const Mask& o) const { for (int i = 0; i < WORDS; i++) if (w[i] != o.w[i]) return false; return true; }
    Mask andnot(const Mask& o) const { Mask r; for (int i = 0; i < WORDS; i++) r.w[i] = w[i] & ~o.w[i]; return r; }
    Mask shl(int k) const;  // toward higher indices, k in 1..63, cut to the map
    Mask shr(int k) const;  // toward lower indices, k in 1..63
    static Mask bit(int h) { Mask m; m.set(h); return m; }
    template <class F> void each(F f) const {  // ascending
        for (int i = 0; i < WORDS; i++) {
            uint64_t x = w[i];
            while (x) { f(i * 64 + __builtin_ctzll(x)); x &= x - 1; }
        }
    }
};

extern const Mask FULL;
inline Mask Mask::operator~() const { Mask r; for (int i = 0; i < WORDS; i++) r.w[i] = ~w[i] & FULL.w[i]; return r; }

Mask dilate(const Mask& m);
Mask shift_dir(const Mask& m, int d);  // directions W, E, NW, NE, SW, SE = 0..5

// SplitMix64, exactly builders.core.rng.Rng
struct Rng {
    uint64_t state = 0;
    uint64_t next64() {
        uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    uint64_t randbelow(uint64_t n) {
        // x < (2**64 // n) * n, that is x < 2**64 - (2**64 % n), and 2**64 % n == (2**64 - n) % n
        // (a draw below 2**64 - n is below it too: the remainder, a division, only for the few above)
        while (true) {
            uint64_t x = next64();
            if (x < 0 - n) return x % n;
            uint64_t rest = (0 - n) % n;
            if (!rest || x < 0 - rest) return x % n;
        }
    }
    template <class T> void shuffle(T* a, int n) {
        for (int i = n - 1; i > 0; i--) {
            int j = (int)randbelow(i + 1);
            T t = a[i]; a[i] = a[j]; a[j] = t;
        }
    }
};

struct Board {
    int8_t terrain[CELLS];
    Mask code_mask[9];
    Mask nbr_mask[CELLS];
    uint32_t adj_loc[CELLS];  // location ordinals next to each hex
    Mask buildable, water, special, location, near_water, near_mountain, near_special, edge_buildable;
    int nloc = 0;
    int loc_hex[MAX_LOC];
    int loc_kind[MAX_LOC];
    int loc_ord[CELLS];
    uint32_t kind_loc[8];  // location ordinals of each kind
    std::vector<int> castles;
    Board(const std::vector<int>& terrain, const std::vector<int>& kind_of_hex);
};

// an error the Python side turns into the engine's message
struct ForcedError {
    int kind;    // 0: not a terrain name, 1: no such card left in the deck
    int index;   // which forced entry
};

struct State {
    std::shared_ptr<const Board> board;
    int num_players = 2, start_player = 0, to_move = 0, built = 0, turn = 0;
    bool final_round = false, over = false, legacy = false;
    int cards[3] = {0, 0, 0};
    Mask occ;
    Mask own[4], near[4];
    int supply[4] = {40, 40, 40, 40};
    int hand[4] = {-1, -1, -1, -1};
    uint32_t held[4] = {0, 0, 0, 0}, used[4] = {0, 0, 0, 0}, newt[4] = {0, 0, 0, 0}, taken[4] = {0, 0, 0, 0};
    uint8_t left[MAX_LOC];
    int8_t deck[25], discard[25], removed[25];
    int deck_n = 0, discard_n = 0, removed_n = 0;
    Rng rng;
    std::vector<int32_t> history;  // actions >= 0; a drawn card c as -(c + 1)
    // forced draws (replay): terrain codes, -1 for a name that is no terrain
    std::vector<int8_t> forced;
    int forced_pos = 0;
    bool keep_history = true;

    State() { for (int i = 0; i < MAX_LOC; i++) left[i] = 2; }
    static State new_game(std::shared_ptr<const Board> board, int players, const int* cards, int start,
                          uint64_t seed, const std::vector<int>* deck_top_first);

    void legal_actions(std::vector<int32_t>& out) const;
    bool is_legal(int64_t action) const;
    void apply(int32_t action);   // the action must be legal
    void apply_forced(int32_t action, const std::vector<int8_t>& forced, int& consumed);  // throws ForcedError
    void scores(int seat, int out[4]) const;  // castles and the 3 cards
    int total(int seat) const { int s[4]; scores(seat, s); return s[0] + s[1] + s[2] + s[3]; }

    // pieces of the rules
    void free_hexes(int p, int code, int32_t bits, std::vector<int32_t>& out) const;
    void tile_actions(int p, uint32_t ready, int supply, std::vector<int32_t>& out) const;
    void lift_moves(int p, const Mask& terrain, int code, std::vector<int32_t>& out) const;
    void paddock_moves(int p, std::vector<int32_t>& out) const;
    Mask build_targets(int p, int kind) const;
    uint32_t ready_tile(int p, int kind) const {
        uint32_t r = held[p] & ~used[p] & ~newt[p] & board->kind_loc[kind];
        return r & (0u - r);
    }
    void take_tiles(int p, int h);
    void lose_tiles(int p, int h);
    void place(int p, int h);
    void move(int p, int src, int dst);
    int draw();
    void reshuffle();
    void replace_card(int p);
    void end_turn(int p);
};

Mask tavern_line_ends(const Mask& own);
bool paddock_reaches(int src, int dst);
int card_score(const State& st, int seat, int card);

}  // namespace kb
