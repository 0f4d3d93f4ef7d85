#include "bench_types.h"

#include <array>
#include <utility>

namespace rackscope::bench {
namespace {

template <typename E, std::size_t N>
std::optional<E> lookup(const std::array<std::pair<E, const char*>, N>& table, std::string_view name) {
    for (const auto& [value, text] : table)
        if (name == text)
            return value;
    return std::nullopt;
}

template <typename E, std::size_t N>
const char* nameOf(const std::array<std::pair<E, const char*>, N>& table, E value) {
    for (const auto& [v, text] : table)
        if (v == value)
            return text;
    return "?";
}

constexpr std::array<std::pair<Op, const char*>, 7> kOps{{{Op::AllReduce, "all_reduce"},
                                                          {Op::AllGather, "all_gather"},
                                                          {Op::ReduceScatter, "reduce_scatter"},
                                                          {Op::AllToAll, "alltoall"},
                                                          {Op::Broadcast, "broadcast"},
                                                          {Op::Reduce, "reduce"},
                                                          {Op::SendRecv, "sendrecv"}}};
constexpr std::array<std::pair<Op, const char*>, 7> kBinaries{{{Op::AllReduce, "all_reduce_perf"},
                                                               {Op::AllGather, "all_gather_perf"},
                                                               {Op::ReduceScatter, "reduce_scatter_perf"},
                                                               {Op::AllToAll, "alltoall_perf"},
                                                               {Op::Broadcast, "broadcast_perf"},
                                                               {Op::Reduce, "reduce_perf"},
                                                               {Op::SendRecv, "sendrecv_perf"}}};
// Order and spelling of nccl-tests' test_typenames; the aliases after them are
// what its ncclstringtotype also accepts.
constexpr std::array<std::pair<DataType, const char*>, 16> kTypes{{{DataType::Int8, "int8"},
                                                                   {DataType::Uint8, "uint8"},
                                                                   {DataType::Int32, "int32"},
                                                                   {DataType::Uint32, "uint32"},
                                                                   {DataType::Int64, "int64"},
                                                                   {DataType::Uint64, "uint64"},
                                                                   {DataType::Half, "half"},
                                                                   {DataType::Float, "float"},
                                                                   {DataType::Double, "double"},
                                                                   {DataType::Bfloat16, "bfloat16"},
                                                                   {DataType::Int8, "char"},
                                                                   {DataType::Int32, "int"},
                                                                   {DataType::Half, "float16"},
                                                                   {DataType::Float, "float32"},
                                                                   {DataType::Double, "float64"},
                                                                   {DataType::Bfloat16, "bf16"}}};
constexpr std::array<std::pair<RedOp, const char*>, 5> kRedOps{{{RedOp::Sum, "sum"},
                                                                {RedOp::Prod, "prod"},
                                                                {RedOp::Max, "max"},
                                                                {RedOp::Min, "min"},
                                                                {RedOp::Avg, "avg"}}};

} // namespace

std::optional<Op> opFromName(std::string_view name) {
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos)
        name.remove_prefix(slash + 1);
    if (auto op = lookup(kBinaries, name))
        return op;
    return lookup(kOps, name);
}
const char* opName(Op op) {
    return nameOf(kOps, op);
}
const char* opBinary(Op op) {
    return nameOf(kBinaries, op);
}
const std::vector<Op>& allOps() {
    static const std::vector<Op> all{Op::AllReduce, Op::AllGather, Op::ReduceScatter, Op::AllToAll,
                                     Op::Broadcast, Op::Reduce,    Op::SendRecv};
    return all;
}

std::optional<DataType> dataTypeFromName(std::string_view name) {
    return lookup(kTypes, name);
}
const char* dataTypeName(DataType t) {
    return nameOf(kTypes, t);
}
std::size_t dataTypeSize(DataType t) {
    switch (t) {
    case DataType::Int8:
    case DataType::Uint8:
        return 1;
    case DataType::Half:
    case DataType::Bfloat16:
        return 2;
    case DataType::Int32:
    case DataType::Uint32:
    case DataType::Float:
        return 4;
    case DataType::Int64:
    case DataType::Uint64:
    case DataType::Double:
        return 8;
    }
    return 0;
}
const std::vector<DataType>& allDataTypes() {
    static const std::vector<DataType> all{
        DataType::Int8,   DataType::Uint8, DataType::Int32, DataType::Uint32, DataType::Int64,
        DataType::Uint64, DataType::Half,  DataType::Float, DataType::Double, DataType::Bfloat16};
    return all;
}

std::optional<RedOp> redOpFromName(std::string_view name) {
    return lookup(kRedOps, name);
}
const char* redOpName(RedOp op) {
    return nameOf(kRedOps, op);
}
const std::vector<RedOp>& allRedOps() {
    static const std::vector<RedOp> all{RedOp::Sum, RedOp::Prod, RedOp::Max, RedOp::Min, RedOp::Avg};
    return all;
}

} // namespace rackscope::bench
