// builders_native: the Python bindings of the native cores (nanobind).
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstring>

#include "kb.hpp"

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

struct KB {
    kb::State st;
    std::vector<int32_t> buf;
};

nb::list to_list(const std::vector<int32_t>& v) {
    PyObject* list = PyList_New((Py_ssize_t)v.size());
    for (size_t i = 0; i < v.size(); i++) PyList_SET_ITEM(list, (Py_ssize_t)i, PyLong_FromLong(v[i]));
    return nb::steal<nb::list>(list);
}

// random playouts: each decision picks legal[rng.randbelow(len(legal))]
int64_t playout(kb::State& st, kb::Rng& pick, std::vector<int32_t>& buf) {
    int64_t decisions = 0;
    while (!st.over) {
        st.legal_actions(buf);
        st.apply(buf[pick.randbelow(buf.size())]);
        decisions++;
    }
    return decisions;
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

    nb::class_<KB>(m, "KBState")
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
        .def_static(
            "blank",
            [](std::shared_ptr<kb::Board> board, int players, const std::vector<int>& cards, int start) {
                if (players < 2 || players > 4) throw nb::value_error("2 to 4 players");
                KB out;
                out.st.board = board;
                out.st.num_players = players;
                out.st.start_player = out.st.to_move = start;
                for (int i = 0; i < 3; i++) out.st.cards[i] = cards.at(i);
                return out;
            })
        .def("copy", [](const KB& s) { KB out; out.st = s.st; return out; })
        .def("legal_actions", [](KB& s) { s.st.legal_actions(s.buf); return to_list(s.buf); })
        .def("is_legal", [](const KB& s, int64_t a) { return s.st.is_legal(a); })
        .def("try_apply", [](KB& s, int64_t a) {
            if (!s.st.is_legal(a)) return false;
            s.st.apply((int32_t)a);
            return true;
        })
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
        .def_prop_ro("history", [](const KB& s) { return to_list(s.st.history); })
        .def("set_history", [](KB& s, const std::vector<int32_t>& h) { s.st.history = h; })
        .def_prop_ro("history_len", [](const KB& s) { return s.st.history.size(); })
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
        .def_prop_ro("cards", [](const KB& s) { return std::vector<int>(s.st.cards, s.st.cards + 3); })
        .def_prop_rw("occ", [](const KB& s) { return mask_bytes(s.st.occ); },
                     [](KB& s, const nb::bytes& b) { s.st.occ = mask_from(b); })
        .def("own", [](const KB& s, int p) { return mask_bytes(s.st.own[p & 3]); })
        .def("near", [](const KB& s, int p) { return mask_bytes(s.st.near[p & 3]); })
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
        .def_prop_ro("nbytes", [](const KB& s) { return sizeof(kb::State) + s.st.history.capacity() * sizeof(int32_t); });
}
