#pragma once
// Which OpenAI-compatible API a load run speaks.

namespace rsload {

enum class Endpoint { Completions, ChatCompletions };

} // namespace rsload
