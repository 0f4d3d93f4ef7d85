#pragma once
// The agent protocol's constants; docs/protocol.md describes the messages.
#include <cstddef>

namespace rsagent::protocol {

constexpr int kVersion = 1;
constexpr size_t kMaxRequestLine = 16u << 20; // bytes, agent side: a load run's prompts travel inline
constexpr int kMinIntervalMs = 50;
constexpr int kMaxIntervalMs = 3600 * 1000;
constexpr int kMaxSampleCount = 1000000;

namespace error {
inline constexpr char kParse[] = "parse-error";
inline constexpr char kLineTooLong[] = "line-too-long";
inline constexpr char kBadRequest[] = "bad-request";
inline constexpr char kUnknownMethod[] = "unknown-method";
inline constexpr char kBadParams[] = "bad-params";
inline constexpr char kUnsupportedProtocol[] = "unsupported-protocol";
inline constexpr char kDuplicateId[] = "duplicate-id";
inline constexpr char kNotFound[] = "not-found";
inline constexpr char kBusy[] = "busy";
inline constexpr char kLoadFailed[] = "load-failed";
} // namespace error

} // namespace rsagent::protocol
