// builders_native: the Python bindings of the native cores (nanobind).
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "kb.hpp"
#include "kb_eval.hpp"
#include "ma.hpp"
#include "ma_eval.hpp"
#include "mcts.hpp"
#include "obs.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace {

using kb::Mask;

nb::bytes mask_bytes(const Mask& m) { return nb::bytes(reinterpret_cast<const char*>(m.w), 50); }

Mask mask_from(const nb::bytes& b) {
    if (b.size() > 56) throw nb::value_error("a hex mask has at most 56 bytes");
    Mask m;
    std::memcpy(m.w, b.c_str(), b.size());
    return m & kb::FULL;
}

std::vector<int> small_list(const int8_t* a, int n) { return std::vector<int>(a, a + n); }

void fill_small(int8_t* a, int& n, const std::vector<int>& v) {
    if (v.size() > 25) throw nb::value_error("a pile holds at most 25 cards");
    n = (int)v.size();
    for (int i = 0; i < n; i++) {
        if (v[i] < 0 || v[i] > 4) throw nb::value_error("a terrain card is a code from 0 to 4");
        a[i] = (int8_t)v[i];
    }
}

// a native state as Python sees it: the core's state, and what the Python side keeps with it (meta:
// board, cards and setup; the pending forced draws; a cache of Python objects made from the
// position, valid while version, bumped by every change, is the same)
template <class S> struct Native {
    S st;
    std::vector<int32_t> buf;
    nb::object meta, forced, cache, hist;
    uint64_t version = 0, cache_version = ~0ULL, hist_version = ~0ULL;
    Native() : meta(nb::none()), forced(nb::steal(PyList_New(0))), cache(nb::none()), hist(nb::none()) {}
};
using KB = Native<kb::State>;
using MA = Native<ma::State>;

// the ints below 16384 (every Kingdom Builder build, every action of The Builders) and Kingdom
// Builder's END made once: lists of actions take them instead of making new ints
constexpr int SMALL_INTS = 16384;
PyObject* small_ints[SMALL_INTS + 1];

nb::list to_list(const std::vector<int32_t>& v) {
    PyObject* list = PyList_New((Py_ssize_t)v.size());
    for (size_t i = 0; i < v.size(); i++) {
        int32_t a = v[i];
        PyObject* o;
        if (a >= 0 && a < SMALL_INTS) { o = small_ints[a]; Py_INCREF(o); }
        else if (a == kb::END) { o = small_ints[SMALL_INTS]; Py_INCREF(o); }
        else o = PyLong_FromLong(a);
        PyList_SET_ITEM(list, (Py_ssize_t)i, o);
    }
    return nb::steal<nb::list>(list);
}

// a state's history: Kingdom Builder's vector, The Builders' shared chunks
const std::vector<int32_t>& codes_of(const std::vector<int32_t>& v) { return v; }
std::vector<int32_t> codes_of(const hist::History& h) { return h.to_vector(); }
nb::list history_list(const std::vector<int32_t>& v) { return to_list(v); }
nb::list history_list(const hist::History& h) { return to_list(h.to_vector()); }
// the bytes of its history a copy of a state writes (a vector's codes; nothing of shared chunks,
// one reference to them), and the bytes the history holds
size_t own_history_bytes(const std::vector<int32_t>& v) { return v.capacity() * sizeof(int32_t); }
size_t own_history_bytes(const hist::History&) { return 0; }
size_t history_bytes(const std::vector<int32_t>& v) { return v.capacity() * sizeof(int32_t); }
size_t history_bytes(const hist::History& h) { return h.chunk_bytes(); }

bool legal_int(const kb::State& st, nb::handle h, long long& a) {
    if (!PyLong_CheckExact(h.ptr())) return false;
    int overflow = 0;
    a = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
    return !overflow && st.is_legal(a);
}

// random playouts: each decision picks legal[rng.randbelow(len(legal))]
template <class S> void random_step(S& st, kb::Rng& pick, std::vector<int32_t>& buf) {
    st.legal_actions(buf);
    st.apply(buf[pick.randbelow(buf.size())]);
}
// The Builders: the same pick from the legal actions' count, the list not written
void random_step(ma::State& st, kb::Rng& pick, std::vector<int32_t>&) {
    ma::Legal legal;
    st.legal(legal);
    st.apply(legal.at((int)pick.randbelow((uint64_t)legal.count())));
}
template <class S> int64_t playout(S& st, kb::Rng& pick, std::vector<int32_t>& buf) {
    int64_t decisions = 0;
    while (!st.over) {
        random_step(st, pick, buf);
        decisions++;
    }
    return decisions;
}

// what both games' native states offer Python alike
template <class N> void bind_common(nb::class_<N>& cls) {
    cls.def("copy", [](nb::handle self) {
            // an independent copy, of the same Python class (the pending forced draws copied too)
            N& s = nb::cast<N&>(self);
            nb::object out = nb::inst_alloc(self.type());
            N* p = nb::inst_ptr<N>(out);
            new (p) N();
            p->st = s.st;
            p->meta = s.meta;
            p->forced = nb::steal(PySequence_List(s.forced.ptr()));
            if (!p->forced.is_valid()) throw nb::python_error();
            nb::inst_mark_ready(out);
            return out;
        })
        .def("legal_actions", [](N& s) { s.st.legal_actions(s.buf); return to_list(s.buf); })
        .def("is_over", [](const N& s) { return s.st.over; })
        .def_prop_rw("meta", [](const N& s) { return s.meta; }, [](N& s, nb::object v) { s.meta = v; })
        .def_prop_rw("forced", [](const N& s) { return s.forced; }, [](N& s, nb::object v) { s.forced = v; })
        .def_prop_ro("version", [](const N& s) { return s.version; })
        .def_prop_rw("cache", [](const N& s) { return s.cache_version == s.version ? s.cache : nb::none(); },
                     [](N& s, nb::object v) { s.cache = v; s.cache_version = s.version; })
        .def_prop_rw("hist", [](const N& s) { return s.hist_version == s.version ? s.hist : nb::none(); },
                     [](N& s, nb::object v) { s.hist = v; s.hist_version = s.version; })
        .def_prop_ro("history_codes", [](const N& s) { return history_list(s.st.history); })
        .def("set_history", [](N& s, const std::vector<int32_t>& h) { s.st.history = h; s.version++; })
        .def_prop_ro("nbytes", [](const N& s) { return sizeof(s.st) + own_history_bytes(s.st.history); })
        .def_prop_ro("history_nbytes", [](const N& s) { return history_bytes(s.st.history); })
        .def("rollout", [](N& s, uint64_t rng_state, int64_t steps) {
            // the search's random playout (builders.ai.mcts): at most ``steps`` actions, each
            // legal[rng.randbelow(len(legal))] from a generator of state ``rng_state``; returns the
            // generator's state after it
            kb::Rng pick{rng_state};
            for (int64_t k = 0; k < steps && !s.st.over; k++) random_step(s.st, pick, s.buf);
            s.version++;
            return pick.state;
        });
}

// -- batched stepping for learning (the index encoding of builders.rl.kingdom) -------------------

constexpr int NUM_ACTIONS = 409, TILE0 = 400, END_INDEX = 408;

struct Batch {
    std::shared_ptr<kb::Board> board;
    int players;
    int cards[3];
    uint64_t next_seed;
    std::vector<kb::State> games;
    std::vector<std::vector<int32_t>> legal;
    std::vector<int> prefix;  // 2 per game, -1 when unused
    kb::Rng pick;

    static bool two_hex(int kind) { return kind >= 5; }

    void reset(size_t i) {
        games[i] = kb::State::new_game(board, players, cards, 0, next_seed++, nullptr);
        games[i].keep_history = false;
        prefix[2 * i] = prefix[2 * i + 1] = -1;
        games[i].legal_actions(legal[i]);
    }

    // the mask of game i after its prefix (builders.rl.kingdom.KingdomCodec.mask)
    void mask(size_t i, uint8_t* out) const { kb::index_mask(legal[i], prefix[2 * i], prefix[2 * i + 1], out); }

    // play index idx in game i; returns the engine action it completed, or -1 for a pick
    int32_t play(size_t i, int idx) {
        int& p0 = prefix[2 * i];
        int& p1 = prefix[2 * i + 1];
        int32_t action;
        if (p0 < 0) {
            if (idx >= TILE0 && idx < END_INDEX) { p0 = idx; return -1; }
            action = idx == END_INDEX ? kb::END : idx;
        } else {
            int kind = p0 - TILE0;
            if (two_hex(kind) && p1 < 0) { p1 = idx; return -1; }
            action = ((kind + 1) << kb::SHIFT) | ((p1 < 0 ? 0 : p1) << kb::SRC_SHIFT) | idx;
            p0 = p1 = -1;
        }
        games[i].apply(action);
        games[i].legal_actions(legal[i]);
        return action;
    }

    void returns(size_t i, float* out) const {
        int best = -1, scores[4], k = 0;
        for (int q = 0; q < players; q++) best = std::max(best, scores[q] = games[i].total(q));
        for (int q = 0; q < players; q++) k += scores[q] == best;
        for (int q = 0; q < players; q++) out[q] = scores[q] == best ? 1.0f / k : 0.0f;
    }
};


// the checks of a batched step: every array one entry per game; every index allowed by its mask
void check_step(size_t actions, size_t masks, size_t rewards, size_t seats, size_t dones, size_t to_move, size_t n,
                int players) {
    if (actions != n || masks != n || rewards != n || seats != (size_t)players || dones != n || to_move != n)
        throw nb::value_error("step: one entry per game");
}

void check_allowed(const int64_t* actions, const uint8_t* masks, size_t n, size_t na) {
    for (size_t i = 0; i < n; i++) {
        int64_t idx = actions[i];
        if (idx < 0 || idx >= (int64_t)na || !masks[i * na + idx])
            throw nb::value_error(("game " + std::to_string(i) + ": index " + std::to_string(idx) +
                                   " is not allowed by its mask").c_str());
    }
}

using U8Masks = nb::ndarray<uint8_t, nb::shape<-1, NUM_ACTIONS>, nb::c_contig, nb::device::cpu>;
using I64Vec = nb::ndarray<int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using F32Mat = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
using U8Vec = nb::ndarray<uint8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using I32Vec = nb::ndarray<int32_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using U8Planes = nb::ndarray<uint8_t, nb::ndim<4>, nb::c_contig, nb::device::cpu>;


// -- batched stepping of The Builders (the index encoding of builders.rl.middle_ages) -------------

struct MABatch {
    std::vector<ma::State> starts;
    size_t next_start = 0;
    std::vector<ma::State> games;
    std::vector<std::vector<int32_t>> legal;
    std::vector<int32_t> code_of, index_of;  // index -> engine action, engine action -> index
    int players = 2;
    kb::Rng pick;

    void reset(size_t i) {
        games[i] = starts[next_start++ % starts.size()];
        games[i].keep_history = false;
        find_legal(i);
    }
    // the legal actions of game i, each of which must have an index (else ValueError, never a read or
    // write out of bounds; a batch whose codes miss an action stops when a game reaches it)
    void find_legal(size_t i) {
        games[i].legal_actions(legal[i]);
        for (int32_t a : legal[i])
            if (a < 0 || (size_t)a >= index_of.size() || index_of[a] < 0)
                throw nb::value_error(("game " + std::to_string(i) + " has a legal action (" + std::to_string(a) +
                                       ") that no index of codes names").c_str());
    }
    void mask(size_t i, uint8_t* out) const {
        std::memset(out, 0, code_of.size());
        for (int32_t a : legal[i]) out[index_of[a]] = 1;
    }
    void returns(size_t i, float* out) const {
        // rules: the most VP, then the most VP of buildings and machines, then the most coins
        const ma::State& st = games[i];
        int64_t keys[4], best = -1;
        for (int q = 0; q < players; q++) {
            int b[3];
            st.breakdown(q, b);
            keys[q] = ((int64_t)(b[0] + b[1] + b[2]) << 40) | ((int64_t)(b[0] + b[1]) << 20) | st.coins[q];
            best = std::max(best, keys[q]);
        }
        int k = 0;
        for (int q = 0; q < players; q++) k += keys[q] == best;
        for (int q = 0; q < players; q++) out[q] = keys[q] == best ? 1.0f / k : 0.0f;
    }
};

using U8Mat = nb::ndarray<uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;

// -- the research kit's observations and masks, filled in numpy arrays (obs.hpp) -----------------

using I8Vec = nb::ndarray<int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// the picks pending before Kingdom Builder's next index: none (-1, -1), a tile (400-407, -1), a move
// tile and the settlement it moves (405-407, hex)
void check_picks(int p0, int p1) {
    bool ok = p0 == -1 ? p1 == -1 : p0 >= kb::TILE0 && p0 < kb::END_INDEX && (p1 == -1 || (p0 >= kb::TILE0 + 5 && p1 >= 0 && p1 < 400));
    if (!ok) throw nb::value_error("picks: none (-1, -1), a tile (400-407, -1) or a move tile and a hex (405-407, 0-399)");
}

void check_seat(int seat, int players) {
    if (seat < 0 || seat >= players) throw nb::index_error("seat out of range");
}

// whether forced draws (a replay) wait: the Python side's apply plays them
template <class N> bool forced_pending(const N& s) {
    PyObject* f = s.forced.ptr();
    return PyList_CheckExact(f) ? PyList_GET_SIZE(f) != 0 : PyObject_IsTrue(f) != 0;
}

// -- The Builders' calls of every decision from Python, as plain CPython methods (no argument
// parsing or conversion in between: legal_actions, apply, is_over and is_legal of MiddleAgesState)

// the state of a NativeMiddleAgesState (TypeError if it was made without its __init__)
MA* ma_of(PyObject* self) {
    if (!nb::inst_ready(nb::handle(self))) {
        PyErr_SetString(PyExc_TypeError, "the native state is not initialized");
        return nullptr;
    }
    return nb::inst_ptr<MA>(self);
}

// the legal actions, a new list of ints written in one go (MiddleAgesState.legal_actions)
PyObject* ma_legal_actions(PyObject* self, PyObject*) {
    MA* s = ma_of(self);
    if (!s) return nullptr;
    ma::Legal legal;
    s->st.legal(legal);
    // an empty list given its items as CPython's own lists take them (PyList_New would zero them first)
    PyObject* list = PyList_New(0);
    int n = legal.count();
    if (!list || !n) return list;
    PyObject** items = static_cast<PyObject**>(PyMem_Malloc(sizeof(PyObject*) * (size_t)n));
    if (!items) {
        Py_DECREF(list);
        return PyErr_NoMemory();
    }
    legal.write(items, [](int32_t a) {
        PyObject* o = small_ints[a];  // every action of The Builders is below SMALL_INTS
        Py_INCREF(o);
        return o;
    });
    PyListObject* l = reinterpret_cast<PyListObject*>(list);
    l->ob_item = items;
    l->allocated = n;
    Py_SET_SIZE(l, n);
    return list;
}

PyObject* ma_is_over(PyObject* self, PyObject*) {
    MA* s = ma_of(self);
    if (!s) return nullptr;
    return PyBool_FromLong(s->st.over);
}

// the action as the core's code if it is an int the core can take, else -1
long long ma_code(PyObject* action) {
    if (!PyLong_CheckExact(action)) return -1;
    int overflow = 0;
    long long a = PyLong_AsLongLongAndOverflow(action, &overflow);
    return overflow ? -1 : a;
}

PyObject* ma_is_legal(PyObject* self, PyObject* action) {
    MA* s = ma_of(self);
    if (!s) return nullptr;
    long long a = ma_code(action);
    if (a == -1 && PyErr_Occurred()) return nullptr;
    return PyBool_FromLong(a >= 0 && s->st.is_legal(a));
}

// play a legal action; anything else (and any action while forced draws are pending) goes to the
// Python side's _apply_slow
PyObject* ma_apply(PyObject* self, PyObject* action) {
    MA* s = ma_of(self);
    if (!s) return nullptr;
    PyObject* f = s->forced.ptr();
    int pending = PyList_CheckExact(f) ? PyList_GET_SIZE(f) != 0 : PyObject_IsTrue(f);
    if (pending < 0) return nullptr;
    if (!pending) {
        long long a = ma_code(action);
        if (a == -1 && PyErr_Occurred()) return nullptr;
        if (a >= 0 && s->st.is_legal(a)) {
            try {
                s->st.apply((int32_t)a);
            } catch (const std::bad_alloc&) {
                return PyErr_NoMemory();
            }
            s->version++;
            Py_RETURN_NONE;
        }
    }
    static PyObject* slow = PyUnicode_InternFromString("_apply_slow");
    return PyObject_CallMethodOneArg(self, slow, action);
}

PyMethodDef ma_methods[] = {
    {"legal_actions", ma_legal_actions, METH_NOARGS, "The legal actions, in the Python engine's order."},
    {"is_over", ma_is_over, METH_NOARGS, "Whether the game is over."},
    {"is_legal", ma_is_legal, METH_O, "Whether the action is legal (an int the core can play)."},
    {"apply", ma_apply, METH_O, "Play an action (the Python side refuses what is not legal)."},
    {nullptr, nullptr, 0, nullptr},
};

void bind_ma_calls(nb::class_<MA>& mastate) {
    for (PyMethodDef* d = ma_methods; d->ml_name; d++) {
        PyObject* descr = PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(mastate.ptr()), d);
        if (!descr) throw nb::python_error();
        mastate.attr(d->ml_name) = nb::steal(descr);
    }
}

// the arrays are written in place: noconvert, so that an array of another type or layout is refused
// rather than copied (and the copy filled)
void bind_rl(nb::class_<KB>& kbstate, nb::class_<MA>& mastate) {
    kbstate
        .def("rl_encode", [](const KB& s, int seat, int p0, int p1, U8Vec out) {
            // seat's flat observation (builders.rl.kingdom, encoding version 2) after the picks p0, p1
            check_seat(seat, s.st.num_players);
            check_picks(p0, p1);
            if (out.shape(0) != (size_t)kb::obs_size(s.st.num_players)) throw nb::value_error("rl_encode: wrong size");
            kb::encode(s.st, seat, p0, p1, out.data());
        }, "seat"_a, "p0"_a, "p1"_a, "out"_a.noconvert())
        .def("rl_mask", [](KB& s, int p0, int p1, I8Vec out) {
            // the indices allowed now after the picks p0, p1 (builders.rl.kingdom), as 0/1
            check_picks(p0, p1);
            if (out.shape(0) != (size_t)kb::NUM_INDICES) throw nb::value_error("rl_mask: 409 entries");
            s.st.legal_actions(s.buf);
            kb::index_mask(s.buf, p0, p1, reinterpret_cast<uint8_t*>(out.data()));
        }, "p0"_a, "p1"_a, "out"_a.noconvert())
        .def("rl_play", [](KB& s, int p0, int p1, int idx) {
            // play index idx after the picks p0, p1 if it is allowed: the engine action it completed, -1
            // for a pick (nothing played), -2 if it is not allowed now or forced draws wait (nothing
            // changed: the Python side says why, or plays the draws)
            check_picks(p0, p1);
            if (s.st.over || idx < 0 || idx >= kb::NUM_INDICES || forced_pending(s)) return -2;
            s.st.legal_actions(s.buf);
            uint8_t allowed[kb::NUM_INDICES];
            kb::index_mask(s.buf, p0, p1, allowed);
            if (!allowed[idx]) return -2;
            int32_t action = kb::index_action(p0, p1, idx);
            if (action >= 0) {
                s.st.apply(action);
                s.version++;
            }
            return (int)action;
        }, "p0"_a, "p1"_a, "index"_a);
    mastate
        .def("rl_encode", [](const MA& s, int seat, U8Vec out) {
            // seat's flat observation (builders.rl.middle_ages, encoding version 2)
            check_seat(seat, s.st.num_players);
            if (out.shape(0) != (size_t)ma::obs_size(s.st.num_players)) throw nb::value_error("rl_encode: wrong size");
            ma::encode(s.st, seat, out.data());
        }, "seat"_a, "out"_a.noconvert())
        .def("rl_mask", [](MA& s, I8Vec out) {
            // the index of every legal action (builders.rl.middle_ages), as 0/1
            if (out.shape(0) != (size_t)ma::NUM_INDICES) throw nb::value_error("rl_mask: 2189 entries");
            s.st.legal_actions(s.buf);
            ma::index_mask(s.buf, reinterpret_cast<uint8_t*>(out.data()));
        }, "out"_a.noconvert())
        .def("rl_play", [](MA& s, int idx) {
            // play index idx if a legal action has it: the engine action, or -2 (nothing changed) if
            // none has or forced draws wait
            if (s.st.over || idx < 0 || idx >= ma::NUM_INDICES || forced_pending(s)) return -2;
            s.st.legal_actions(s.buf);
            for (int32_t a : s.buf)
                if (ma::index_of(a) == idx) {
                    s.st.apply(a);
                    s.version++;
                    return (int)a;
                }
            return -2;
        }, "index"_a)
        .def("rl_observe", [](MA& s, int seat, U8Vec obs, I8Vec mask) {
            // rl_encode of seat, and seat's mask as the environments hand it out: the legal indices if
            // seat is to move, none if not, all once the game is over
            check_seat(seat, s.st.num_players);
            if (obs.shape(0) != (size_t)ma::obs_size(s.st.num_players)) throw nb::value_error("rl_observe: wrong size");
            if (mask.shape(0) != (size_t)ma::NUM_INDICES) throw nb::value_error("rl_observe: 2189 mask entries");
            ma::observe(s.st, seat, s.buf, obs.data(), reinterpret_cast<uint8_t*>(mask.data()));
        }, "seat"_a, "obs"_a.noconvert(), "mask"_a.noconvert())
        .def("random_start", [](MA& s, int players, uint64_t seed, std::vector<int> buildings,
                                std::vector<int> apprentices, const std::vector<int>& others) {
            // this state becomes the start of setup.random_setup(players, seed), drawn from the cards
            // given (the building deck, the apprentices, the other workers); returns the setup's
            // building deck, worker deck and apprentices, as card indices top first
            if (players < 2 || players > 4) throw nb::value_error("2 to 4 players");
            if (buildings.size() > 42 || apprentices.size() < (size_t)players ||
                apprentices.size() + others.size() > 42 + (size_t)players)
                throw nb::value_error("random_start: at most 42 buildings and 42 workers, an apprentice a seat");
            auto check = [](const std::vector<int>& cards) {
                for (int c : cards)
                    if (c < 0 || c >= ma::NUM_CARDS) throw nb::value_error("random_start: no such card");
            };
            check(buildings);
            check(apprentices);
            check(others);
            std::vector<int> workers;
            ma::random_draws(players, seed, buildings, apprentices, others, workers);
            s.st.start_setup(players, 0, buildings, workers, apprentices);
            s.version++;
            return std::make_tuple(buildings, workers, apprentices);
        }, "players"_a, "seed"_a, "buildings"_a, "apprentices"_a, "others"_a)
        .def_prop_ro("coins", [](const MA& s) { return std::vector<int>(s.st.coins, s.st.coins + s.st.num_players); })
        .def_prop_ro("turn", [](const MA& s) { return s.st.turn; });
}

// -- the bots inside the core: Kingdom Builder's evaluation and turn planner (kb_eval.hpp) --------

// a new native state of the Python class of `like`, with `st` as its position and the meta and
// pending forced draws of `from`
nb::object kb_like(nb::handle like, const KB& from, const kb::State& st) {
    nb::object out = nb::inst_alloc(like.type());
    KB* p = nb::inst_ptr<KB>(out);
    new (p) KB();
    p->st = st;
    p->meta = from.meta;
    p->forced = nb::steal(PySequence_List(from.forced.ptr()));
    if (!p->forced.is_valid()) throw nb::python_error();
    nb::inst_mark_ready(out);
    return out;
}

// KingdomSettings' 20 weights of the evaluation and move heuristic in the order of its fields
// (builders.ai.eval_kingdom.native_weights), or none: the defaults
kb::Weights kb_weights(const std::vector<double>& w) {
    if (w.empty()) return kb::Weights();
    if ((int)w.size() != kb::Weights::COUNT) throw nb::value_error("weights: the 20 weights of KingdomSettings");
    try {
        return kb::Weights::from(w.data());
    } catch (const std::invalid_argument& e) {
        throw nb::value_error(e.what());
    }
}

// the planner's settings: kb_weights and TILE_ACTIONS (at least 1)
kb::Weights kb_plan_weights(const std::vector<double>& weights, int tile_actions) {
    if (tile_actions < 1) throw nb::value_error("TILE_ACTIONS must be a whole number of at least 1");
    kb::Weights w = kb_weights(weights);
    w.tile_actions = tile_actions;
    return w;
}

void bind_kb_bots(nb::module_& m, nb::class_<KB>& kbstate) {
    nb::class_<kb::PyRandom>(m, "PyRandom")
        .def(nb::init<>())
        .def("seed", &kb::PyRandom::seed, "n"_a)
        .def("random", &kb::PyRandom::random)
        .def("getrandbits", [](kb::PyRandom& r, int k) {
            if (k < 1 || k > 64) throw nb::value_error("getrandbits: from 1 to 64 bits");
            return r.getrandbits(k);
        }, "k"_a)
        .def("getstate", [](const kb::PyRandom& r) {
            // as random.Random.getstate()[1]: the 624 words and the index
            std::vector<int64_t> out(r.mt, r.mt + 624);
            out.push_back(r.index);
            return out;
        })
        .def("setstate", [](kb::PyRandom& r, const std::vector<int64_t>& state) {
            if (state.size() != 625) throw nb::value_error("setstate: 624 words and an index");
            for (int i = 0; i < 624; i++)
                if (state[i] < 0 || state[i] > 0xffffffffLL) throw nb::value_error("setstate: a word out of range");
            if (state[624] < 0 || state[624] > 624) throw nb::value_error("setstate: the index out of range");
            for (int i = 0; i < 624; i++) r.mt[i] = (uint32_t)state[i];
            r.index = (int)state[624];
        }, "state"_a);
    kbstate
        .def("eval_values", [](const KB& s, bool turn_over, const std::vector<double>& weights) {
            // builders.ai.eval_kingdom.values (turn_over: whether one was given; weights: see kb_weights)
            double v[4];
            kb::EvalContext(s.st, kb_weights(weights)).values(s.st, turn_over, v);
            return std::vector<double>(v, v + s.st.num_players);
        }, "turn_over"_a, "weights"_a = std::vector<double>())
        .def("eval_moves", [](const KB& s, const std::vector<int32_t>& acts, const std::vector<double>& weights) {
            // builders.ai.eval_kingdom.move_values
            for (int32_t a : acts)
                if (a < 0) throw nb::value_error("eval_moves: an action is not negative");
            std::vector<double> out(acts.size());
            kb::EvalContext(s.st, kb_weights(weights)).move_values(s.st, acts.data(), (int)acts.size(), out.data());
            return out;
        }, "actions"_a, "weights"_a = std::vector<double>())
        .def("preview", [](nb::handle self, int seat, int terrain) {
            // KingdomState.preview_turn: seat starts a turn holding terrain card `terrain`
            const KB& s = nb::cast<const KB&>(self);
            check_seat(seat, s.st.num_players);
            if (terrain < 0 || terrain > 4) throw nb::value_error("a terrain card is a code from 0 to 4");
            kb::State st = s.st;
            st.to_move = seat;
            st.hand[seat] = terrain;
            st.built = 0;
            st.used[seat] = 0;
            st.newt[seat] = 0;
            return kb_like(self, s, st);
        }, "seat"_a, "terrain"_a)
        .def("plan_turn", [](nb::handle self, int seat, int width, bool keep, kb::PyRandom& rnd,
                             std::optional<double> deadline, nb::object now, const std::vector<double>& weights,
                             int tile_actions) {
            // TurnPlanner._plans: (positions valued, [(lead, state before end, actions)] best first
            // with keep, else the best lead); now(positions valued so far) is the planner's clock,
            // asked after each step when a deadline is given; the settings' weights (see kb_weights)
            // and TILE_ACTIONS
            const KB& s = nb::cast<const KB&>(self);
            check_seat(seat, s.st.num_players);
            if (width < 1) throw nb::value_error("plan_turn: a beam of at least 1");
            kb::Weights w = kb_plan_weights(weights, tile_actions);
            std::function<bool(int64_t)> late = [&](int64_t evals) { return nb::cast<double>(now(evals)) > *deadline; };
            kb::PlanSearch search;
            search.run(kb::EvalContext(s.st, w), s.st, seat, width, keep, rnd, deadline ? &late : nullptr);
            if (!keep) return nb::make_tuple(search.evals, search.best);
            nb::list found;
            for (const kb::Plan& plan : search.plans)
                found.append(nb::make_tuple(plan.value, kb_like(self, s, *plan.state), to_list(plan.actions)));
            return nb::make_tuple(search.evals, found);
        }, "seat"_a, "width"_a, "keep"_a, "rnd"_a, "deadline"_a.none(), "now"_a.none(),
           "weights"_a = std::vector<double>(), "tile_actions"_a = 16)
        .def("plan_rollout", [](const KB& s, int seat, uint64_t sample, int width, const std::vector<double>& weights,
                                int tile_actions) {
            // TurnPlanner._rollout from this plan's position before its end: (seat's final lead,
            // positions valued), with the settings' weights and TILE_ACTIONS
            check_seat(seat, s.st.num_players);
            if (width < 1) throw nb::value_error("plan_rollout: a beam of at least 1");
            if (!s.st.over && !s.st.is_legal(kb::END)) throw nb::value_error("plan_rollout: the turn is not complete");
            kb::Weights w = kb_plan_weights(weights, tile_actions);
            int64_t evals = 0;
            double lead;
            kb::State end = s.st;  // the position is copied while the interpreter is held
            {
                nb::gil_scoped_release release;
                lead = kb::play_out(kb::EvalContext(end, w), end, seat, sample, width, evals);
            }
            return std::make_tuple(lead, evals);
        }, "seat"_a, "sample"_a, "width"_a, "weights"_a = std::vector<double>(), "tile_actions"_a = 16);
}


// -- The Builders' bots inside the core (builders.ai.eval_middle_ages, planner_middle_ages) ----------

ma::Settings ma_settings(const std::vector<double>& w) {
    if ((int)w.size() != ma::Settings::COUNT) throw nb::value_error("settings: the 17 weights of MiddleAgesSettings");
    return ma::Settings::from(w);
}

// the planner's clock asked with the positions valued so far, against its deadline
struct MALate {
    std::optional<double> deadline;
    nb::object now;
    std::function<bool(int64_t)> fn;
    MALate(std::optional<double> d, nb::object n) : deadline(d), now(std::move(n)) {
        fn = [this](int64_t evals) { return nb::cast<double>(now(evals)) > *deadline; };
    }
    const std::function<bool(int64_t)>* get() const { return deadline ? &fn : nullptr; }
};

void bind_ma_bots(nb::class_<MA>& mastate) {
    mastate
        .def("ma_eval_values", [](const MA& s, const std::vector<double>& settings) {
            // builders.ai.eval_middle_ages.values with these weights (MiddleAgesSettings' fields in order)
            double v[4];
            ma::EvalContext(ma_settings(settings)).values(s.st, v);
            return std::vector<double>(v, v + s.st.num_players);
        }, "settings"_a)
        .def("ma_plan_value", [](const MA& s, int seat, const std::vector<double>& settings) {
            // MiddleAgesPlanner._value: seat's win value (its returns once the game is over)
            check_seat(seat, s.st.num_players);
            return ma::EvalContext(ma_settings(settings)).value(s.st, seat);
        }, "seat"_a, "settings"_a)
        .def("ma_rows", [](const MA& s) {
            // the rows as the planner compares them: (building row, worker row) of action codes
            auto row = [](const auto& r) {
                nb::list out;
                for (auto x : r) out.append((int)x);
                return nb::tuple(out);
            };
            return nb::make_tuple(row(s.st.brow), row(s.st.wrow));
        })
        .def("ma_plan_turn", [](nb::handle self, int seat, int width, const std::vector<double>& settings,
                                kb::PyRandom& rnd, std::optional<double> deadline, nb::object now, bool stop) {
            // MiddleAgesPlanner._turn: (positions valued, [(value, tie, position after, actions)] best
            // first, or None when `stop` and the deadline passed); now(positions valued so far) is the
            // planner's clock, asked after each step when a deadline is given
            const MA& s = nb::cast<const MA&>(self);
            check_seat(seat, s.st.num_players);
            if (width < 1) throw nb::value_error("ma_plan_turn: a beam of at least 1");
            ma::EvalContext ctx(ma_settings(settings));
            MALate late(deadline, now);
            ma::Planner planner{ctx, rnd, late.get()};
            std::vector<ma::Turn> found;
            if (!planner.turn(s.st, seat, width, stop, true, found)) return nb::make_tuple(planner.evals, nb::none());
            nb::list out;
            for (const ma::Turn& t : found) {
                nb::object st = self.attr("copy")();
                nb::inst_ptr<MA>(st)->st = t.state;
                out.append(nb::make_tuple(t.value, t.tie, st, to_list(t.actions)));
            }
            return nb::make_tuple(planner.evals, nb::object(out));
        }, "seat"_a, "width"_a, "settings"_a, "rnd"_a, "deadline"_a.none(), "now"_a.none(), "stop"_a)
        .def("ma_plan_answered", [](const MA& s, int seat, int reply, const std::vector<double>& settings,
                                    kb::PyRandom& rnd, std::optional<double> deadline, nb::object now, int depth) {
            // MiddleAgesPlanner._answered from this plan's end: (positions valued, seat's value, or
            // None when the deadline passed first)
            check_seat(seat, s.st.num_players);
            if (reply < 1) throw nb::value_error("ma_plan_answered: a beam of at least 1");
            if (depth < 1 || depth > 3) throw nb::value_error("ma_plan_answered: a depth of 1, 2 or 3");
            ma::EvalContext ctx(ma_settings(settings));
            MALate late(deadline, now);
            ma::Planner planner{ctx, rnd, late.get()};
            double score = 0;
            if (!planner.answered(s.st, seat, reply, depth, score)) return nb::make_tuple(planner.evals, nb::none());
            return nb::make_tuple(planner.evals, nb::object(nb::float_(score)));
        }, "seat"_a, "reply"_a, "settings"_a, "rnd"_a, "deadline"_a.none(), "now"_a.none(), "depth"_a);
}


// -- the search (builders.ai.mcts) inside the core: its tree, grown by blocks of iterations ----------

template <class G, class N> void bind_search(nb::module_& m, const char* name) {
    using T = mcts::Tree<G>;
    nb::class_<T>(m, name)
        .def("run", [](T& t, const N& s, int seat, int64_t count, uint64_t rng_state, int32_t first) {
            // `count` iterations (MCTSAgent._search); returns the generator's state after them
            check_seat(seat, s.st.num_players);
            if (first >= 0 && !t.nodes[t.root].index.count(first)) throw nb::value_error("run: no such child");
            typename G::State st = s.st;  // copied while the interpreter is held
            nb::gil_scoped_release release;
            return t.run(st, seat, count, rng_state, first);
        }, "state"_a, "seat"_a, "count"_a, "rng_state"_a, "first"_a = -1)
        .def_prop_ro("root", [](const T& t) { return t.root; })
        .def("node", [](const T& t, int id) {
            // (player, visits, avail, value) of node `id`
            const mcts::Node& nd = t.nodes.at(id);
            return std::make_tuple(nd.player, nd.visits, nd.avail, nd.value);
        }, "id"_a)
        .def("children_of", [](const T& t, int id) {
            // node `id`'s children in the order added: (action, node)
            nb::list out;
            for (auto& ch : t.nodes.at(id).children) out.append(nb::make_tuple(ch.first, ch.second));
            return out;
        }, "id"_a)
        .def("priors_of", [](const T& t, int id) -> nb::object {
            // node `id`'s win values right after each action tried from it (full priors), or None
            const mcts::Node& nd = t.nodes.at(id);
            if (nd.prior_actions.empty()) return nb::none();
            nb::dict out;
            for (size_t i = 0; i < nd.prior_actions.size(); i++) {
                const double* pv = nd.prior_values.data() + i * t.players;
                out[nb::int_(nd.prior_actions[i])] = std::vector<double>(pv, pv + t.players);
            }
            return out;
        }, "id"_a)
        .def("add_child", [](T& t, int32_t action, int player) {
            // a root's child that the search has not added (MCTSAgent.evaluate_actions)
            mcts::Node& r = t.nodes[t.root];
            if (r.index.count(action)) return false;
            int id = (int)t.nodes.size();
            r.index.emplace(action, id);
            r.children.emplace_back(action, id);
            t.nodes.emplace_back(player);
            return true;
        }, "action"_a, "player"_a)
        .def("top_two", [](const T& t) {
            // the most and the second most visits of the root's children
            int64_t top = 0, second = 0;
            for (auto& ch : t.nodes[t.root].children) {
                int64_t v = t.nodes[ch.second].visits;
                if (v > top) { second = top; top = v; }
                else if (v > second) second = v;
            }
            return std::make_tuple(top, second);
        })
        .def("reroot", &T::reroot, "action"_a)
        .def_prop_ro("visits", [](const T& t) { return t.nodes[t.root].visits; })
        .def_prop_ro("size", [](const T& t) { return t.nodes.size(); })
        .def("dump", [](const T& t) {
            // the tree depth first, children in the order added: (depth, action, player, visits, avail, value)
            nb::list out;
            std::vector<std::tuple<int, int32_t, int>> stack{{0, -1, t.root}};
            while (!stack.empty()) {
                auto [depth, action, id] = stack.back();
                stack.pop_back();
                const mcts::Node& nd = t.nodes[id];
                out.append(nb::make_tuple(depth, action, nd.player, nd.visits, nd.avail, nd.value));
                for (auto it = nd.children.rbegin(); it != nd.children.rend(); ++it)
                    stack.emplace_back(depth + 1, it->first, it->second);
            }
            return out;
        });
}

// the state's resample_hidden (of either game) made in the core: a new state of the same Python class
// with its public history (the actions, no card drawn) and no forced draws; returns it and the
// generator's state after it
template <class G, class N> void bind_resample(nb::class_<N>& cls) {
    cls.def("resample", [](nb::handle self, int seat, uint64_t rng_state) {
        const N& s = nb::cast<const N&>(self);
        kb::Rng rng{rng_state};
        typename G::State st = G::resample(s.st, seat, rng);
        st.keep_history = true;
        for (int32_t a : codes_of(s.st.history))
            if (a >= 0) st.history.push_back(a);
        nb::object out = nb::inst_alloc(self.type());
        N* p = nb::inst_ptr<N>(out);
        new (p) N();
        p->st = std::move(st);
        p->meta = s.meta;
        nb::inst_mark_ready(out);
        return std::make_tuple(out, rng.state);
    }, "seat"_a, "rng_state"_a);
}

void bind_searches(nb::module_& m, nb::class_<KB>& kbstate, nb::class_<MA>& mastate) {
    bind_search<mcts::KBGame, KB>(m, "KBSearch");
    bind_search<mcts::MAGame, MA>(m, "MASearch");
    bind_resample<mcts::KBGame>(kbstate);
    bind_resample<mcts::MAGame>(mastate);
    kbstate.def("mcts_tree", [](const KB& s, double c, double scale, double widen, int top, bool fast, int own,
                                int rollout, int finish, const std::vector<double>& weights) {
        // a new search tree of MCTSAgent's settings, the evaluation and move heuristic with `weights`
        // (see kb_weights)
        return mcts::Tree<mcts::KBGame>(mcts::KBGame(s.st, kb_weights(weights)),
                                        {c, scale, widen, top, fast, own, rollout, finish}, s.st.num_players);
    }, "c"_a, "scale"_a, "widen"_a, "top"_a, "fast"_a, "own"_a, "rollout"_a, "finish"_a,
       "weights"_a = std::vector<double>());
    mastate.def("mcts_tree", [](const MA& s, double c, double scale, double widen, int top, bool, int own,
                                int rollout, int finish, const std::vector<double>& settings) {
        // a new search tree of MCTSAgent's settings, the evaluation with `settings` (no move heuristic)
        return mcts::Tree<mcts::MAGame>(mcts::MAGame(ma_settings(settings)),
                                        {c, scale, widen, top, false, own, rollout, finish}, s.st.num_players);
    }, "c"_a, "scale"_a, "widen"_a, "top"_a, "fast"_a, "own"_a, "rollout"_a, "finish"_a, "settings"_a);
}

}  // namespace

NB_MODULE(builders_native, m) {
    m.doc() = "The native cores of the builders game engines.";
    m.attr("KINGDOM_VERSION") = 1;

    nb::class_<kb::Board>(m, "KBBoard")
        .def("__init__", [](kb::Board* self, const std::vector<int>& terrain, const std::vector<int>& kinds) {
            if (terrain.size() != 400 || kinds.size() != 400) throw nb::value_error("a board has 400 hexes");
            for (int t : terrain)
                if (t < 0 || t > 8) throw nb::value_error("a terrain code is from 0 to 8");
            new (self) kb::Board(terrain, kinds);
        })
        .def_prop_ro("nloc", [](const kb::Board& b) { return b.nloc; });

    for (int i = 0; i < SMALL_INTS; i++) small_ints[i] = PyLong_FromLong(i);
    small_ints[SMALL_INTS] = PyLong_FromLong(kb::END);

    nb::class_<KB> kbstate(m, "KBState");
    kbstate
        .def("__init__", [](KB* self, std::shared_ptr<kb::Board> board, int players, const std::vector<int>& cards,
                            int start) {
            // an empty map before any draw (KingdomState.blank)
            if (players < 2 || players > 4) throw nb::value_error("2 to 4 players");
            if (cards.size() != 3) throw nb::value_error("3 cards");
            if (start < 0 || start >= players) throw nb::value_error("start player out of range");
            new (self) KB();
            self->st.board = board;
            self->st.num_players = players;
            self->st.start_player = self->st.to_move = start;
            for (int i = 0; i < 3; i++) self->st.cards[i] = cards[i];
        })
        .def_static(
            "new_game",
            [](std::shared_ptr<kb::Board> board, int players, const std::vector<int>& cards, int start,
               uint64_t seed, std::optional<std::vector<int>> deck) {
                if (players < 2 || players > 4) throw nb::value_error("2 to 4 players");
                if (cards.size() != 3) throw nb::value_error("3 cards");
                if (start < 0 || start >= players) throw nb::value_error("start player out of range");
                if (deck && deck->size() != 25) throw nb::value_error("a deck has 25 cards");
                KB out;
                out.st = kb::State::new_game(board, players, cards.data(), start, seed, deck ? &*deck : nullptr);
                return out;
            },
            "board"_a, "players"_a, "cards"_a, "start"_a, "seed"_a, "deck"_a = nb::none())
        .def("start_game", [](KB& s, uint64_t seed, std::optional<std::vector<int>> deck) {
            // the initial state of this map, seats and cards (setup.start_state): the deck given top
            // first, or the full deck shuffled with the seed; every seat draws a card
            if (deck && deck->size() != 25) throw nb::value_error("a deck has 25 cards");
            s.st = kb::State::new_game(s.st.board, s.st.num_players, s.st.cards, s.st.start_player, seed,
                                       deck ? &*deck : nullptr);
            s.version++;
        }, "seed"_a, "deck"_a = nb::none())
        .def("assign", [](KB& s, const KB& other) {
            // take the position of another native state (its history, not its Python side)
            s.st = other.st;
            s.version++;
        })
        .def_prop_ro("current_player", [](const KB& s) { return s.st.to_move; })
        .def("is_legal", [](const KB& s, nb::handle h) { long long a; return legal_int(s.st, h, a); },
             "action"_a.none())
        .def("apply", [](nb::handle self, nb::handle action) {
            // play a legal action; anything else (and any action while forced draws are pending) goes
            // to the Python side's _apply_slow, which plays the draws or raises the engine's error
            KB& s = nb::cast<KB&>(self);
            PyObject* f = s.forced.ptr();
            bool pending = PyList_CheckExact(f) ? PyList_GET_SIZE(f) != 0 : PyObject_IsTrue(f) != 0;
            long long a;
            if (!pending && legal_int(s.st, action, a)) {
                s.st.apply((int32_t)a);
                s.version++;
                return;
            }
            self.attr("_apply_slow")(action);
        }, "action"_a.none())
        .def("apply_forced", [](KB& s, int64_t a, const std::vector<int>& forced) {
            // (1, consumed) after the action; (0, 0) if it is not legal; (-1, i) forced entry i is no
            // terrain; (-2, i) no card of forced entry i is left in the deck (nothing changed then)
            if (!s.st.is_legal(a)) return std::make_tuple(0, 0);
            std::vector<int8_t> f(forced.begin(), forced.end());
            int consumed = 0;
            try {
                s.st.apply_forced((int32_t)a, f, consumed);
            } catch (const kb::ForcedError& e) {
                return std::make_tuple(-1 - e.kind, e.index);
            }
            s.version++;
            return std::make_tuple(1, consumed);
        })
        .def("scores", [](const KB& s, int seat) {
            if (seat < 0 || seat >= s.st.num_players) throw nb::index_error("seat out of range");
            int out[4];
            s.st.scores(seat, out);
            return std::vector<int>(out, out + 4);
        })
        .def("playout", [](KB& s, uint64_t seed) {
            kb::Rng pick{seed};
            s.version++;
            return playout(s.st, pick, s.buf);
        })
        .def_static("random_games", [](std::shared_ptr<kb::Board> board, int players, const std::vector<int>& cards,
                                       uint64_t first_seed, int games, uint64_t pick_seed) {
            // whole random games inside the core, each from a new game of seed first_seed + g; the
            // decisions made and the sum of the winners' scores
            kb::Rng pick{pick_seed};
            std::vector<int32_t> buf;
            int64_t decisions = 0, total = 0;
            {
                nb::gil_scoped_release release;
                for (int g = 0; g < games; g++) {
                    kb::State st = kb::State::new_game(board, players, cards.data(), 0, first_seed + g, nullptr);
                    st.keep_history = false;
                    decisions += playout(st, pick, buf);
                    for (int q = 0; q < players; q++) total += st.total(q);
                }
            }
            return std::make_tuple(decisions, total);
        })
        // the fields, read and written as the Python state keeps them
        .def_prop_ro("num_players", [](const KB& s) { return s.st.num_players; })
        .def_prop_rw("start_player", [](const KB& s) { return s.st.start_player; },
                     [](KB& s, int v) { s.st.start_player = v; })
        .def_prop_rw("to_move", [](const KB& s) { return s.st.to_move; }, [](KB& s, int v) { s.st.to_move = v; })
        .def_prop_rw("built", [](const KB& s) { return s.st.built; }, [](KB& s, int v) { s.st.built = v; })
        .def_prop_rw("turn", [](const KB& s) { return s.st.turn; }, [](KB& s, int v) { s.st.turn = v; })
        .def_prop_rw("final_round", [](const KB& s) { return s.st.final_round; },
                     [](KB& s, bool v) { s.st.final_round = v; })
        .def_prop_rw("over", [](const KB& s) { return s.st.over; }, [](KB& s, bool v) { s.st.over = v; })
        .def_prop_rw("legacy", [](const KB& s) { return s.st.legacy; }, [](KB& s, bool v) { s.st.legacy = v; })
        .def_prop_rw("rng_state", [](const KB& s) { return s.st.rng.state; },
                     [](KB& s, uint64_t v) { s.st.rng.state = v; })
        .def_prop_ro("card_codes", [](const KB& s) { return std::vector<int>(s.st.cards, s.st.cards + 3); })
        .def_prop_rw("occ_bytes", [](const KB& s) { return mask_bytes(s.st.occ); },
                     [](KB& s, const nb::bytes& b) { s.st.occ = mask_from(b); })
        .def("own_bytes", [](const KB& s, int p) { return mask_bytes(s.st.own[p & 3]); })
        .def("near_bytes", [](const KB& s, int p) { return mask_bytes(s.st.near[p & 3]); })
        .def("set_own", [](KB& s, int p, const nb::bytes& own, const nb::bytes& near) {
            s.st.own[p & 3] = mask_from(own);
            s.st.near[p & 3] = mask_from(near);
        })
        .def_prop_rw("supply", [](const KB& s) { return std::vector<int>(s.st.supply, s.st.supply + s.st.num_players); },
                     [](KB& s, const std::vector<int>& v) { for (size_t i = 0; i < v.size() && i < 4; i++) s.st.supply[i] = v[i]; })
        .def_prop_rw("hand", [](const KB& s) { return std::vector<int>(s.st.hand, s.st.hand + s.st.num_players); },
                     [](KB& s, const std::vector<int>& v) { for (size_t i = 0; i < v.size() && i < 4; i++) s.st.hand[i] = v[i]; })
        .def("tiles", [](const KB& s, int p) {
            p &= 3;
            return std::make_tuple(s.st.held[p], s.st.used[p], s.st.newt[p], s.st.taken[p]);
        })
        .def("set_tiles", [](KB& s, int p, uint32_t held, uint32_t used, uint32_t newt, uint32_t taken) {
            p &= 3;
            s.st.held[p] = held; s.st.used[p] = used; s.st.newt[p] = newt; s.st.taken[p] = taken;
        })
        .def_prop_rw("left", [](const KB& s) { return std::vector<int>(s.st.left, s.st.left + s.st.board->nloc); },
                     [](KB& s, const std::vector<int>& v) { for (size_t i = 0; i < v.size() && i < kb::MAX_LOC; i++) s.st.left[i] = (uint8_t)v[i]; })
        .def_prop_rw("deck", [](const KB& s) { return small_list(s.st.deck, s.st.deck_n); },
                     [](KB& s, const std::vector<int>& v) { fill_small(s.st.deck, s.st.deck_n, v); })
        .def_prop_rw("discard", [](const KB& s) { return small_list(s.st.discard, s.st.discard_n); },
                     [](KB& s, const std::vector<int>& v) { fill_small(s.st.discard, s.st.discard_n, v); })
        .def_prop_rw("removed", [](const KB& s) { return small_list(s.st.removed, s.st.removed_n); },
                     [](KB& s, const std::vector<int>& v) { fill_small(s.st.removed, s.st.removed_n, v); })
        ;
    bind_common(kbstate);

    nb::class_<Batch>(m, "KBBatch")
        .def("__init__", [](Batch* self, std::shared_ptr<kb::Board> board, int players, const std::vector<int>& cards,
                            size_t n, uint64_t seed, uint64_t pick_seed) {
            if (players < 2 || players > 4) throw nb::value_error("2 to 4 players");
            if (cards.size() != 3) throw nb::value_error("3 cards");
            if (n < 1) throw nb::value_error("at least one game");
            new (self) Batch();
            self->board = board;
            self->players = players;
            for (int i = 0; i < 3; i++) self->cards[i] = cards[i];
            self->next_seed = seed;
            self->games.resize(n);
            self->legal.resize(n);
            self->prefix.assign(2 * n, -1);
            self->pick.state = pick_seed;
            for (size_t i = 0; i < n; i++) self->reset(i);
        })
        .def_prop_ro("size", [](const Batch& b) { return b.games.size(); })
        .def("masks", [](const Batch& b, U8Masks out) {
            if (out.shape(0) != b.games.size()) throw nb::value_error("masks: one row per game");
            for (size_t i = 0; i < b.games.size(); i++) b.mask(i, out.data() + i * NUM_ACTIONS);
        }, "out"_a.noconvert())
        .def("step", [](Batch& b, I64Vec actions, U8Masks masks, F32Mat rewards, U8Vec dones, I32Vec to_move) {
            // play one index in every game (each must be allowed by masks, the masks of the last call),
            // then write the new masks, the returns of the games that ended (which start again with the
            // next seed) and the seats to move
            size_t n = b.games.size();
            check_step(actions.shape(0), masks.shape(0), rewards.shape(0), rewards.shape(1), dones.shape(0),
                       to_move.shape(0), n, b.players);
            check_allowed(actions.data(), masks.data(), n, NUM_ACTIONS);
            for (size_t i = 0; i < n; i++) {
                float* r = rewards.data() + i * b.players;
                for (int q = 0; q < b.players; q++) r[q] = 0.0f;
                dones.data()[i] = 0;
                b.play(i, (int)actions.data()[i]);
                if (b.games[i].over) {
                    b.returns(i, r);
                    dones.data()[i] = 1;
                    b.reset(i);
                }
                b.mask(i, masks.data() + i * NUM_ACTIONS);
                to_move.data()[i] = b.games[i].to_move;
            }
        }, "actions"_a.noconvert(), "masks"_a.noconvert(), "rewards"_a.noconvert(), "dones"_a.noconvert(), "to_move"_a.noconvert())
        .def("sample", [](Batch& b, U8Masks masks, I64Vec out) {
            // a uniform random allowed index of every game (the generator of pick_seed)
            for (size_t i = 0; i < b.games.size(); i++) {
                const uint8_t* m = masks.data() + i * NUM_ACTIONS;
                int count = 0;
                for (int k = 0; k < NUM_ACTIONS; k++) count += m[k];
                if (!count) throw nb::value_error("sample: a game has no allowed index");
                int pickn = (int)b.pick.randbelow(count);
                for (int k = 0; k < NUM_ACTIONS; k++)
                    if (m[k] && pickn-- == 0) { out.data()[i] = k; break; }
            }
        }, "masks"_a.noconvert(), "out"_a.noconvert())
        .def("run_random", [](Batch& b, int64_t steps) {
            // steps of uniform random allowed indices in every game, inside the core; games ended
            nb::gil_scoped_release release;
            std::vector<uint8_t> m(NUM_ACTIONS);
            int64_t ended = 0;
            for (int64_t s = 0; s < steps; s++)
                for (size_t i = 0; i < b.games.size(); i++) {
                    b.mask(i, m.data());
                    int count = 0;
                    for (int k = 0; k < NUM_ACTIONS; k++) count += m[k];
                    int pickn = (int)b.pick.randbelow(count), idx = 0;
                    for (int k = 0; k < NUM_ACTIONS; k++)
                        if (m[k] && pickn-- == 0) { idx = k; break; }
                    b.play(i, idx);
                    if (b.games[i].over) { ended++; b.reset(i); }
                }
            return ended;
        })
        .def("state", [](const Batch& b, size_t i) {
            // a copy of game i's state (its history is not kept) and its prefix
            if (i >= b.games.size()) throw nb::index_error("no such game");
            KB out;
            out.st = b.games[i];
            return std::make_tuple(out, b.prefix[2 * i], b.prefix[2 * i + 1]);
        })
        .def("observe", [](const Batch& b, U8Planes planes) {
            // the board planes of builders.rl.kingdom for the seat to move of every game: 9 terrains,
            // 8 location kinds, tiles left, the settlements of each seat from the one to move on, the
            // settlement picked to move
            size_t n = b.games.size();
            int np = 17 + 1 + b.players + 1;
            if (planes.shape(0) != n || planes.shape(1) != (size_t)np || planes.shape(2) != 20 || planes.shape(3) != 20)
                throw nb::value_error("observe: planes of shape (games, 19 + players, 20, 20)");
            const kb::Board& bd = *b.board;
            for (size_t i = 0; i < n; i++) {
                const kb::State& st = b.games[i];
                uint8_t* out = planes.data() + i * np * 400;
                std::memset(out, 0, (size_t)np * 400);
                for (int h = 0; h < 400; h++) out[bd.terrain[h] * 400 + h] = 1;
                for (int o = 0; o < bd.nloc; o++) {
                    out[(9 + bd.loc_kind[o]) * 400 + bd.loc_hex[o]] = 1;
                    out[17 * 400 + bd.loc_hex[o]] = st.left[o];
                }
                for (int k = 0; k < b.players; k++)
                    st.own[(st.to_move + k) % b.players].each([&](int h) { out[(18 + k) * 400 + h] = 1; });
                int p0 = b.prefix[2 * i], p1 = b.prefix[2 * i + 1];
                if (p0 >= 0 && p1 >= 0) out[(18 + b.players) * 400 + p1] = 1;
            }
        }, "planes"_a.noconvert());

    // -- The Builders: Middle Ages ----------------------------------------------------------------
    m.def("ma_tables", &ma::set_tables, "cost"_a, "prod"_a, "req"_a, "reward"_a, "vp"_a, "machines"_a);

    nb::class_<MA> mastate(m, "MAState");
    mastate
        .def(nb::init<>())
        .def_prop_ro("current_player", [](const MA& s) { return s.st.cur; })
        .def("apply_forced", [](MA& s, int64_t a, int card) {
            // play legal action a with the next draw forced to card (-1: a name of no card): 1 if the
            // draw was used, 0 if none was made; (-1 building / -2 worker) the card is not in that deck
            s.st.forced_card = card;
            try {
                int used = s.st.apply((int32_t)a);
                s.st.forced_card = -2;
                s.version++;
                return used;
            } catch (const ma::ForcedError& e) {
                s.st.forced_card = -2;
                return e.building ? -1 : -2;
            }
        })
        .def("breakdown", [](const MA& s, int seat) {
            if (seat < 0 || seat >= s.st.num_players) throw nb::index_error("seat out of range");
            int out[3];
            s.st.breakdown(seat, out);
            return std::make_tuple(out[0], out[1], out[2]);
        })
        .def("can_gain_vp", [](const MA& s) { return s.st.can_gain_vp(); })
        .def("playout", [](MA& s, uint64_t seed) {
            kb::Rng pick{seed};
            s.version++;
            return playout(s.st, pick, s.buf);
        })
        .def_static("random_games", [](std::vector<MA*> starts, int repeat, uint64_t pick_seed) {
            // each start state played to its end `repeat` times inside the core; the decisions made
            std::vector<ma::State> games;
            for (MA* m : starts) games.push_back(m->st);
            kb::Rng pick{pick_seed};
            std::vector<int32_t> buf;
            int64_t decisions = 0;
            nb::gil_scoped_release release;
            for (int r = 0; r < repeat; r++)
                for (const ma::State& g : games) {
                    ma::State st = g;
                    st.keep_history = false;
                    decisions += playout(st, pick, buf);
                }
            return decisions;
        })
        .def("fields", [](const MA& s) {
            // the position with the names and forms of MiddleAgesState's fields
            const ma::State& st = s.st;
            int n = st.num_players;
            nb::dict d;
            auto lists = [&](auto arr) {
                nb::list out;
                for (int p = 0; p < n; p++) {
                    nb::list one;
                    for (auto x : arr[p]) one.append((int)x);
                    out.append(one);
                }
                return out;
            };
            auto list_of = [](const auto& small) {
                nb::list out;
                for (auto x : small) out.append((int)x);
                return out;
            };
            d["num_players"] = n;
            d["start"] = st.start;
            d["cur"] = st.cur;
            d["actions"] = st.actions;
            d["over"] = st.over;
            d["final_round"] = st.final_round;
            d["turn"] = st.turn;
            d["coins"] = std::vector<int>(st.coins, st.coins + n);
            d["vp"] = std::vector<int>(st.vp, st.vp + n);
            d["crew"] = lists(st.crew);
            d["sites"] = lists(st.sites);
            d["done"] = lists(st.done);
            nb::dict placed;
            std::vector<int> on[ma::NUM_CARDS];
            for (int16_t e : st.placed) on[e / 128].push_back(e % 128);
            for (int c = 0; c < ma::NUM_CARDS; c++)
                if (st.has_placed[c]) {
                    nb::list workers;
                    for (int x : on[c]) workers.append(x);
                    placed[nb::int_(c)] = nb::tuple(workers);
                }
            d["placed"] = placed;
            d["progress"] = std::vector<int64_t>(st.progress, st.progress + ma::NUM_CARDS);
            d["sent"] = std::vector<int>(st.sent, st.sent + ma::NUM_CARDS);
            d["touched"] = list_of(st.touched);
            d["brow"] = list_of(st.brow);
            d["wrow"] = list_of(st.wrow);
            d["bdeck"] = list_of(st.bdeck);
            d["wdeck"] = list_of(st.wdeck);
            d["unrecruited"] = st.unrecruited;
            return d;
        })
        .def("set_fields", [](MA& s, nb::dict d) {
            // take the position from a dict of MiddleAgesState's fields (as fields() writes it)
            ma::State& st = s.st;
            auto get_int = [&](const char* k) { return nb::cast<int64_t>(d[k]); };
            int n = (int)get_int("num_players");
            if (n < 2 || n > 4) throw nb::value_error("2 to 4 players");
            st.num_players = n;
            st.start = (int)get_int("start");
            st.cur = (int)get_int("cur");
            st.actions = (int)get_int("actions");
            st.over = nb::cast<bool>(d["over"]);
            st.final_round = nb::cast<bool>(d["final_round"]);
            st.turn = (int)get_int("turn");
            st.unrecruited = get_int("unrecruited");
            auto coins = nb::cast<std::vector<int>>(d["coins"]);
            auto vp = nb::cast<std::vector<int>>(d["vp"]);
            for (int p = 0; p < n; p++) { st.coins[p] = coins.at(p); st.vp[p] = vp.at(p); }
            auto fill = [](auto& small, const std::vector<int>& v, int cap) {
                if ((int)v.size() > cap) throw nb::value_error("a list too long for the native state");
                small.n = 0;
                for (int x : v) small.push(x);
            };
            auto crew = nb::cast<std::vector<std::vector<int>>>(d["crew"]);
            auto sites = nb::cast<std::vector<std::vector<int>>>(d["sites"]);
            auto done = nb::cast<std::vector<std::vector<int>>>(d["done"]);
            for (int p = 0; p < n; p++) {
                fill(st.crew[p], crew.at(p), 64);
                fill(st.sites[p], sites.at(p), 48);
                fill(st.done[p], done.at(p), 48);
            }
            for (int c = 0; c < ma::NUM_CARDS; c++) st.has_placed[c] = false;
            st.placed.n = 0;
            for (auto item : nb::cast<nb::dict>(d["placed"])) {
                int c = nb::cast<int>(item.first);
                if (c < 0 || c >= ma::NUM_CARDS) throw nb::value_error("no such site");
                st.has_placed[c] = true;
                for (int x : nb::cast<std::vector<int>>(item.second)) {
                    if (x < 0 || x >= ma::NUM_CARDS) throw nb::value_error("no such worker");
                    if (st.placed.n == 96) throw nb::value_error("a list too long for the native state");
                    st.place(c, x);
                }
            }
            auto progress = nb::cast<std::vector<int64_t>>(d["progress"]);
            auto sent = nb::cast<std::vector<int>>(d["sent"]);
            for (int c = 0; c < ma::NUM_CARDS; c++) {
                int64_t g = progress.at(c);
                int s = sent.at(c);
                // (the engine's own bounds: 43 of each resource in the whole game, a send an action)
                if (g < 0 || g > 0x7f7f7f7fLL || (g & ma::GUARD)) throw nb::value_error("a site's progress out of range");
                if (s < 0 || s > 32767) throw nb::value_error("a site's sends out of range");
                st.progress[c] = (uint32_t)g;
                st.sent[c] = (int16_t)s;
            }
            fill(st.touched, nb::cast<std::vector<int>>(d["touched"]), 48);
            fill(st.brow, nb::cast<std::vector<int>>(d["brow"]), 5);
            fill(st.wrow, nb::cast<std::vector<int>>(d["wrow"]), 5);
            fill(st.bdeck, nb::cast<std::vector<int>>(d["bdeck"]), 48);
            fill(st.wdeck, nb::cast<std::vector<int>>(d["wdeck"]), 48);
            s.version++;
        });
    bind_common(mastate);
    bind_ma_calls(mastate);
    bind_rl(kbstate, mastate);
    bind_kb_bots(m, kbstate);
    bind_ma_bots(mastate);
    bind_searches(m, kbstate, mastate);

    nb::class_<MABatch>(m, "MABatch")
        .def("__init__", [](MABatch* self, std::vector<MA*> starts, const std::vector<int>& codes, uint64_t pick_seed,
                            size_t n) {
            // n games of The Builders, game i starting as starts[i % len(starts)] and each game that
            // ends starting again as the next start in turn; codes[index] is the engine action of an index
            if (starts.empty() || n < 1) throw nb::value_error("at least one start and one game");
            // built aside and moved in: a refusal leaves no half-made object behind
            MABatch b;
            int maxcode = 0;
            for (int c : codes) {
                if (c < 0) throw nb::value_error("codes: an engine action is not negative");
                maxcode = std::max(maxcode, c);
            }
            b.code_of.assign(codes.begin(), codes.end());
            b.index_of.assign(maxcode + 1, -1);
            for (size_t k = 0; k < codes.size(); k++) {
                if (b.index_of[codes[k]] >= 0) throw nb::value_error("codes: an engine action named twice");
                b.index_of[codes[k]] = (int32_t)k;
            }
            for (MA* s : starts) b.starts.push_back(s->st);
            b.players = b.starts[0].num_players;
            for (const auto& s : b.starts)
                if (s.num_players != b.players) throw nb::value_error("the starts differ in players");
            b.pick.state = pick_seed;
            b.games.resize(n);
            b.legal.resize(n);
            for (size_t i = 0; i < n; i++) b.reset(i);
            new (self) MABatch(std::move(b));
        })
        .def_prop_ro("size", [](const MABatch& b) { return b.games.size(); })
        .def_prop_ro("num_actions", [](const MABatch& b) { return b.code_of.size(); })
        .def("masks", [](const MABatch& b, U8Mat out) {
            if (out.shape(0) != b.games.size() || out.shape(1) != b.code_of.size()) throw nb::value_error("masks: (games, actions)");
            for (size_t i = 0; i < b.games.size(); i++) b.mask(i, out.data() + i * b.code_of.size());
        }, "out"_a.noconvert())
        .def("step", [](MABatch& b, I64Vec actions, U8Mat masks, F32Mat rewards, U8Vec dones, I32Vec to_move) {
            // play one index in every game (each allowed by its mask); the new masks, the returns of
            // the games that ended (which start again) and the seats to move
            size_t n = b.games.size(), na = b.code_of.size();
            if (masks.shape(1) != na) throw nb::value_error("step: one entry per game");
            check_step(actions.shape(0), masks.shape(0), rewards.shape(0), rewards.shape(1), dones.shape(0),
                       to_move.shape(0), n, b.players);
            check_allowed(actions.data(), masks.data(), n, na);
            for (size_t i = 0; i < n; i++) {
                float* r = rewards.data() + i * b.players;
                for (int q = 0; q < b.players; q++) r[q] = 0.0f;
                dones.data()[i] = 0;
                b.games[i].apply(b.code_of[actions.data()[i]]);
                if (b.games[i].over) {
                    b.returns(i, r);
                    dones.data()[i] = 1;
                    b.reset(i);
                } else {
                    b.find_legal(i);
                }
                b.mask(i, masks.data() + i * na);
                to_move.data()[i] = b.games[i].cur;
            }
        }, "actions"_a.noconvert(), "masks"_a.noconvert(), "rewards"_a.noconvert(), "dones"_a.noconvert(), "to_move"_a.noconvert())
        .def("sample", [](MABatch& b, I64Vec out) {
            // a uniform random legal index of every game (the generator of pick_seed)
            for (size_t i = 0; i < b.games.size(); i++)
                out.data()[i] = b.index_of[b.legal[i][b.pick.randbelow(b.legal[i].size())]];
        }, "out"_a.noconvert())
        .def("state", [](const MABatch& b, size_t i) {
            if (i >= b.games.size()) throw nb::index_error("no such game");
            MA out;
            out.st = b.games[i];
            return out;
        });
}
