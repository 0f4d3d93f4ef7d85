#pragma once
// The agent protocol's constants, the one definition the agent and the
// console both include (header-only, no Qt); docs/protocol.md describes the
// messages.
#include <cstddef>

namespace rsagent::protocol {

constexpr int kVersion = 1;
// Additions an older console ignores and an older agent lacks, so a silent field is told from an old agent:
// 1: each GPU's NVLink fabric registration, C2C mode, NVLink far-end kind and error counters; "imex".
// 2: the "rdma_bw" method (perftest's ib_write_bw between two agents).
constexpr int kMinorVersion = 2;
constexpr size_t kMaxRequestLine = 16u << 20;   // bytes, agent side: a load run's prompts travel inline
constexpr size_t kMaxResponseLine = 128u << 20; // bytes, console side: a snapshot carries hwloc XML
constexpr int kMaxConcurrentSamples = 64;       // "sample" streams open at once per client
constexpr int kMaxConcurrentRdmaBw = 8;         // "rdma_bw" runs at once (a server's NICs, one each)
constexpr int kMinIntervalMs = 50;
constexpr int kMaxIntervalMs = 3600 * 1000;
constexpr int kMaxSampleCount = 1000000;

namespace method {
inline constexpr char kHello[] = "hello";
inline constexpr char kCollect[] = "collect";
inline constexpr char kSample[] = "sample";
inline constexpr char kLoad[] = "load";
inline constexpr char kCancel[] = "cancel";
inline constexpr char kRdmaBw[] = "rdma_bw";
} // namespace method

// Named in the hello beside the methods: what an agent can do that an older one of the same version cannot.
inline constexpr char kCapabilitySampleGpus[] = "sample_gpus"; // `sample` with "gpus": true

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
