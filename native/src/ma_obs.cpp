// The Builders' observation and index mask (builders.rl.middle_ages: MiddleAgesCodec.encode_reference,
// the index of each engine action).
#include <cstring>

#include "obs.hpp"

namespace ma {

namespace {

constexpr int NUM_SITES = 42, NUM_WORKER_CARDS = 42, NUM_WORKERS = 50, FIRST_SITE = 42;
constexpr int OPEN0 = 5, RECRUIT0 = 47, SEND0 = 89;

inline uint8_t clip(int v) { return (uint8_t)(v < 255 ? v : 255); }

// the first machine card (the tables are set when the module is loaded, before any state exists)
int first_machine() {
    static int found = -1;
    if (found < 0) {
        found = NUM_CARDS;
        for (int c = 0; c < NUM_CARDS; c++)
            if (T.machine[c]) { found = c; break; }
    }
    return found;
}

// a worker card (W01-W42) or a completed machine (M1-M8) as a worker slot (0-49)
inline int slot(int card, int machine0) { return card < NUM_WORKER_CARDS ? card : NUM_WORKER_CARDS + card - machine0; }

}  // namespace

int obs_size(int n) { return 3 * NUM_SITES + n * (NUM_WORKERS + 2 * NUM_SITES) + 9 * NUM_SITES + 2 * n + 7; }

void encode(const State& st, int seat, uint8_t* out) {
    const int n = st.num_players;
    const int machine0 = first_machine();
    std::memset(out, 0, (size_t)obs_size(n));
    uint8_t* brow = out;
    uint8_t* top = brow + NUM_SITES;
    uint8_t* wrow = top + NUM_SITES;
    uint8_t* crew = wrow + NUM_WORKER_CARDS;
    uint8_t* sites = crew + NUM_WORKERS * n;
    uint8_t* done = sites + NUM_SITES * n;
    uint8_t* have = done + NUM_SITES * n;
    uint8_t* need = have + 4 * NUM_SITES;
    uint8_t* sent = need + 4 * NUM_SITES;
    uint8_t* coins = sent + NUM_SITES;
    uint8_t* vp = coins + n;
    uint8_t* progress = vp + n;
    for (int16_t a : st.brow) brow[a - OPEN - FIRST_SITE] = 1;
    if (st.bdeck.n) top[st.bdeck.v[st.bdeck.n - 1] - FIRST_SITE] = 1;
    for (int16_t a : st.wrow) wrow[a - RECRUIT] = 1;
    for (int k = 0; k < n; k++) {
        int q = (seat + k) % n;
        for (int8_t w : st.crew[q]) crew[NUM_WORKERS * k + slot(w, machine0)] = 1;
        for (int8_t c : st.done[q]) done[NUM_SITES * k + c - FIRST_SITE] = 1;
        for (int8_t c : st.sites[q]) {
            sites[NUM_SITES * k + c - FIRST_SITE] = 1;
            int s = c - FIRST_SITE;
            int64_t packed = st.progress[c], req = T.req[c];
            for (int r = 0; r < 4; r++) {
                int h = (int)((packed >> (8 * r)) & 0xFF), want = (int)((req >> (8 * r)) & 0xFF);
                have[4 * s + r] = (uint8_t)h;
                need[4 * s + r] = (uint8_t)(want > h ? want - h : 0);
            }
            sent[s] = clip(st.sent[c]);
        }
        coins[k] = clip(st.coins[q]);
        vp[k] = clip(st.vp[q]);
    }
    progress[0] = clip(st.actions);
    progress[1] = clip(st.turn);
    progress[2] = st.final_round;
    progress[3] = st.cur == seat && !st.over;
    progress[4] = (uint8_t)st.bdeck.n;
    progress[5] = (uint8_t)st.wdeck.n;
    progress[6] = (uint8_t)(((st.start - seat) % n + n) % n);
}

int index_of(int32_t a) {
    if (a >= SEND) {
        int worker = a & 127, site = (a >> 7) - (SEND >> 7) - FIRST_SITE;
        return SEND0 + NUM_WORKERS * site + slot(worker, first_machine());
    }
    if (a >= RECRUIT) return RECRUIT0 + a - RECRUIT;
    if (a >= OPEN) return OPEN0 + a - OPEN - FIRST_SITE;
    return a;  // end 0, buy 1, coins 1-3: 2-4
}

void index_mask(const std::vector<int32_t>& legal, uint8_t* out) {
    std::memset(out, 0, NUM_INDICES);
    for (int32_t a : legal) out[index_of(a)] = 1;
}

void observe(const State& st, int seat, std::vector<int32_t>& buf, uint8_t* obs, uint8_t* mask) {
    encode(st, seat, obs);
    if (st.over) {
        std::memset(mask, 1, NUM_INDICES);
    } else if (seat == st.cur) {
        st.legal_actions(buf);
        index_mask(buf, mask);
    } else {
        std::memset(mask, 0, NUM_INDICES);
    }
}

}  // namespace ma
