#pragma once
// The quick way to read an OpenAI-compatible chunk or response: one pass over
// the text that checks all of it is JSON, as nlohmann's parser would accept
// it, and keeps only the fields a StreamChunk holds, without building a
// document. It declines (nullopt) whatever it would not read exactly as the
// document reader does: text that is not JSON or not an object, an error
// object, a repeated or escaped key among those it reads, a count that is not
// a plain integer, a leading byte-order mark, nesting past the limit. The
// document reader then reads it, and says what is wrong.
#include "openai_stream.h"

#include <optional>
#include <string_view>

namespace rsload {

std::optional<StreamChunk> scanChunk(std::string_view text, Endpoint endpoint);

} // namespace rsload
