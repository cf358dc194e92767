// A game's history (its actions and chance outcomes, as codes) shared between the copies of a state:
// a list of chunks, each holding up to CHUNK codes and pointing at the full chunk before it. A copy
// of a state takes one more reference to its last chunk, not the codes; an append writes in the last
// chunk when no other state holds it, else in a copy of that chunk alone (the full ones before it
// are never written again, so every state sees its own history).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

namespace hist {

class History {
    static constexpr int CHUNK = 30;
    struct Chunk {
        std::shared_ptr<const Chunk> prev;  // full
        int32_t size = 0;                   // the codes up to the end of this chunk
        int32_t n = 0;                      // the codes in this chunk
        int32_t code[CHUNK];
    };
    std::shared_ptr<Chunk> last_;

  public:
    size_t size() const { return last_ ? (size_t)last_->size : 0; }
    void clear() { last_.reset(); }
    void shrink_to_fit() {}
    void push_back(int32_t code) {
        Chunk* c = last_.get();
        if (c && c->n < CHUNK) {
            if (last_.use_count() != 1) {  // another state holds it: write in a copy of it
                last_ = std::make_shared<Chunk>(*c);
                c = last_.get();
            }
        } else {
            auto next = std::make_shared<Chunk>();
            next->size = c ? c->size : 0;
            next->prev = std::move(last_);
            last_ = std::move(next);
            c = last_.get();
        }
        c->code[c->n++] = code;
        c->size++;
    }
    std::vector<int32_t> to_vector() const {
        std::vector<int32_t> out(size());
        for (const Chunk* c = last_.get(); c; c = c->prev.get())
            for (int i = c->n; i-- > 0;) out[(size_t)(c->size - c->n + i)] = c->code[i];
        return out;
    }
    History& operator=(const std::vector<int32_t>& codes) {
        clear();
        for (int32_t code : codes) push_back(code);
        return *this;
    }
    // the bytes of the chunks (held once for all the states that share them)
    size_t chunk_bytes() const {
        size_t n = 0;
        for (const Chunk* c = last_.get(); c; c = c->prev.get()) n += sizeof(Chunk);
        return n;
    }
};

}  // namespace hist
