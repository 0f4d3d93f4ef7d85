#pragma once
// The vocabulary rackscope-nccl-bench shares with nccl-tests: the collectives
// (by nccl-tests' binary names), the data types and the reduction operations,
// spelled as nccl-tests spells them on its command line and in its table.
// Plain C++: the benchmark runs on GPU servers next to the agent, without Qt.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace rackscope::bench {

enum class Op { AllReduce, AllGather, ReduceScatter, AllToAll, Broadcast, Reduce, SendRecv };
enum class DataType { Int8, Uint8, Int32, Uint32, Int64, Uint64, Half, Float, Double, Bfloat16 };
enum class RedOp { Sum, Prod, Max, Min, Avg };

// "all_reduce", "all_reduce_perf" or a path ending in one: the collective.
std::optional<Op> opFromName(std::string_view name);
const char* opName(Op op);   // "all_reduce"
const char* opBinary(Op op); // "all_reduce_perf"
const std::vector<Op>& allOps();

// nccl-tests' -d names ("float", "half", "bfloat16"...; "all" is handled by the options).
std::optional<DataType> dataTypeFromName(std::string_view name);
const char* dataTypeName(DataType t);
std::size_t dataTypeSize(DataType t);
const std::vector<DataType>& allDataTypes();

// nccl-tests' -o names ("sum", "prod", "max", "min", "avg").
std::optional<RedOp> redOpFromName(std::string_view name);
const char* redOpName(RedOp op);
const std::vector<RedOp>& allRedOps();

} // namespace rackscope::bench
