#pragma once
// The agent protocol's constants; docs/protocol.md describes the messages.
#include <cstddef>

namespace rsagent::protocol {

constexpr int kVersion = 1;
constexpr size_t kMaxRequestLine = 1 << 20;   // bytes, agent side
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
} // namespace error

} // namespace rsagent::protocol
