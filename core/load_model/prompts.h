#pragma once
// The requests' prompts and lengths. Synthetic prompts are words drawn from
// a list of common English words that BPE tokenizers (Llama, GPT, Qwen) keep
// as one token each, so N words come to about N tokens; the server's usage
// figures, when it sends them, are what the results count. A fresh seed per
// run keeps the server's prefix cache from flattering a repeated run.
#include "load_spec.h"

#include <random>

namespace rsload {

int64_t drawLength(const LengthDist& d, std::mt19937_64& rng);

// `words` words from the list, separated by spaces.
std::string syntheticPrompt(int64_t words, std::mt19937_64& rng);
// The same, appended to `out`.
void appendSyntheticPrompt(std::string* out, int64_t words, std::mt19937_64& rng);

// A dataset file, as text: JSON Lines with one object a line ({"prompt": ...} or {"text": ...}, or
// {"messages": [...]}, with an optional "output_len"/"max_tokens"), or a ShareGPT JSON array
// ({"conversations": [{"from": "human", "value": ...}, {"from": "gpt", "value": ...}]}). Malformed
// records are counted in *skipped with the first one's reason in *why; nothing is read past `limit`.
std::vector<Prompt> readPromptFile(const std::string& text, size_t limit, size_t* skipped, std::string* why);

} // namespace rsload
