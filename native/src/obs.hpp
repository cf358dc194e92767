// The research kit's observations and index masks (builders.rl.kingdom, builders.rl.middle_ages,
// encoding version 2), filled from the native states: byte for byte the arrays of the Python
// encoders (tests/native/test_kingdom_encoding.py, test_middle_ages_encoding.py).
#pragma once
#include <cstdint>
#include <vector>

#include "kb.hpp"
#include "ma.hpp"

namespace kb {

constexpr int NUM_INDICES = 409, TILE0 = 400, END_INDEX = 408;

// the length of a seat's flat observation for a game of `players` seats
int obs_size(int players);
// the flat observation of `seat` (rows relative to it) with the picks p0, p1 pending (-1: none)
void encode(const State& st, int seat, int p0, int p1, uint8_t* out);
// the indices allowed after the picks p0, p1 (-1: none), given the legal actions: 0/1 entries
void index_mask(const std::vector<int32_t>& legal, int p0, int p1, uint8_t* out);
// the engine action index idx completes after the picks p0, p1, or -1 when it is a pick itself
int32_t index_action(int p0, int p1, int idx);

}  // namespace kb

namespace ma {

constexpr int NUM_INDICES = 2189;

int obs_size(int players);
void encode(const State& st, int seat, uint8_t* out);
// the index of each legal action: 0/1 entries
void index_mask(const std::vector<int32_t>& legal, uint8_t* out);
// the index of an engine action (-1: none)
int index_of(int32_t action);
// seat's observation and its mask as the environments hand them out (builders.rl.base.Match.observe):
// the legal indices if seat is to move, none if not, all once the game is over (buf: scratch)
void observe(const State& st, int seat, std::vector<int32_t>& buf, uint8_t* obs, uint8_t* mask);

}  // namespace ma
