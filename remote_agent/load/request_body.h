#pragma once
// The JSON body of one completions or chat completions request. What every
// request of a run shares is written once; a body is then its prompt and
// max_tokens between the two, with no JSON tree built per request (the plain
// request rate depends on it). The keys keep vLLM's benchmark's order.
#include "load_model/load_spec.h"

#include <string>
#include <string_view>

namespace rsload {

class RequestBody {
public:
    explicit RequestBody(const LoadSpec& spec);
    // A prompt from a file (its text, or its chat messages where it has them) or synthetic text.
    std::string make(const Prompt* prompt, std::string_view syntheticText, int64_t maxTokens) const;
    // The same, written over `out` (whose room a run reuses request after request).
    void write(const Prompt* prompt, std::string_view syntheticText, int64_t maxTokens,
               std::string* out) const;

private:
    bool chat_;
    std::string head_, tail_;
};

} // namespace rsload
