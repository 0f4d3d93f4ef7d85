#include "bench_data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace rackscope::bench {
namespace {

std::uint64_t mix(std::uint64_t x) { // splitmix64's finaliser
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// The largest whole number the type holds exactly, as a bound on the sum of every rank's value.
double exactLimit(DataType t) {
    switch (t) {
    case DataType::Int8:
        return 127;
    case DataType::Uint8:
        return 255;
    case DataType::Half:
        return 2048;
    case DataType::Bfloat16:
        return 256;
    default:
        return 1 << 24;
    }
}

bool isFloating(DataType t) {
    return t == DataType::Half || t == DataType::Float || t == DataType::Double || t == DataType::Bfloat16;
}

double epsilon(DataType t) {
    switch (t) {
    case DataType::Half:
        return 0x1p-10;
    case DataType::Bfloat16:
        return 0x1p-7;
    case DataType::Float:
        return 0x1p-23;
    case DataType::Double:
        return 0x1p-52;
    default:
        return 0;
    }
}

template <typename T> void put(void* buffer, std::size_t i, T v) {
    std::memcpy(static_cast<char*>(buffer) + i * sizeof(T), &v, sizeof(T));
}
template <typename T> T get(const void* buffer, std::size_t i) {
    T v;
    std::memcpy(&v, static_cast<const char*>(buffer) + i * sizeof(T), sizeof(T));
    return v;
}

bool matches(double got, double expected, const DataSpec& spec) {
    if (std::isnan(got))
        return false;
    if (spec.op != RedOp::Avg || !isFloating(spec.type))
        return got == expected;
    // NCCL averages floating types by scaling each contribution by 1/n and summing: a rounding per rank.
    const double tolerance = epsilon(spec.type) * (spec.ranks + 2) * std::max(1.0, std::fabs(expected));
    return std::fabs(got - expected) <= tolerance;
}

} // namespace

double inputValue(int rank, std::size_t index, const DataSpec& spec) {
    const std::uint64_t h =
        mix(spec.seed ^ mix(static_cast<std::uint64_t>(rank) * 0x100000001B3ull ^ mix(index)));
    const int ranks = std::max(spec.ranks, 1);
    if (spec.op == RedOp::Prod) // at most one rank holds a 2 at each index: the product is 1 or 2
        return (index % static_cast<std::size_t>(ranks) == static_cast<std::size_t>(rank) && (h & 1)) ? 2 : 1;
    const double largest = std::clamp(std::floor(exactLimit(spec.type) / ranks), 1.0, 10.0);
    return static_cast<double>(h % (static_cast<std::uint64_t>(largest) + 1));
}

double reducedValue(std::size_t index, const DataSpec& spec) {
    double acc = inputValue(0, index, spec);
    for (int r = 1; r < spec.ranks; ++r) {
        const double v = inputValue(r, index, spec);
        switch (spec.op) {
        case RedOp::Sum:
        case RedOp::Avg:
            acc += v;
            break;
        case RedOp::Prod:
            acc *= v;
            break;
        case RedOp::Max:
            acc = std::max(acc, v);
            break;
        case RedOp::Min:
            acc = std::min(acc, v);
            break;
        }
    }
    if (spec.op == RedOp::Avg)
        acc = isFloating(spec.type) ? acc / spec.ranks : std::floor(acc / spec.ranks);
    return acc;
}

void fillInput(void* dst, std::size_t first, std::size_t n, int rank, const DataSpec& spec) {
    for (std::size_t i = 0; i < n; ++i)
        store(dst, i, spec.type, inputValue(rank, first + i, spec));
}

bool hasResult(Op op, int rank, int root) {
    return op != Op::Reduce || rank == root;
}

void fillExpected(Op op, const Geometry& g, int rank, int root, void* dst, std::size_t first, std::size_t n,
                  const DataSpec& spec) {
    const std::size_t part = std::max<std::size_t>(g.paramCount, 1);
    const std::size_t self = static_cast<std::size_t>(rank);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t e = first + i;
        double v = 0;
        switch (op) {
        case Op::AllReduce:
        case Op::Reduce:
            v = reducedValue(e, spec);
            break;
        case Op::ReduceScatter:
            v = reducedValue(self * g.paramCount + e, spec);
            break;
        case Op::AllGather:
            v = inputValue(static_cast<int>(e / part), e % part, spec);
            break;
        case Op::AllToAll:
            v = inputValue(static_cast<int>(e / part), self * g.paramCount + e % part, spec);
            break;
        case Op::Broadcast:
            v = inputValue(root, e, spec);
            break;
        case Op::SendRecv:
            v = inputValue((rank - 1 + spec.ranks) % spec.ranks, e, spec);
            break;
        }
        store(dst, i, spec.type, v);
    }
}

std::size_t countWrong(const void* got, const void* expected, std::size_t n, const DataSpec& spec) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i)
        if (!matches(load(got, i, spec.type), load(expected, i, spec.type), spec))
            ++wrong;
    return wrong;
}

void store(void* buffer, std::size_t i, DataType t, double v) {
    switch (t) {
    case DataType::Int8:
        put(buffer, i, static_cast<std::int8_t>(v));
        break;
    case DataType::Uint8:
        put(buffer, i, static_cast<std::uint8_t>(v));
        break;
    case DataType::Int32:
        put(buffer, i, static_cast<std::int32_t>(v));
        break;
    case DataType::Uint32:
        put(buffer, i, static_cast<std::uint32_t>(v));
        break;
    case DataType::Int64:
        put(buffer, i, static_cast<std::int64_t>(v));
        break;
    case DataType::Uint64:
        put(buffer, i, static_cast<std::uint64_t>(v));
        break;
    case DataType::Half:
        put(buffer, i, floatToHalf(static_cast<float>(v)));
        break;
    case DataType::Float:
        put(buffer, i, static_cast<float>(v));
        break;
    case DataType::Double:
        put(buffer, i, v);
        break;
    case DataType::Bfloat16:
        put(buffer, i, floatToBfloat16(static_cast<float>(v)));
        break;
    }
}

double load(const void* buffer, std::size_t i, DataType t) {
    switch (t) {
    case DataType::Int8:
        return get<std::int8_t>(buffer, i);
    case DataType::Uint8:
        return get<std::uint8_t>(buffer, i);
    case DataType::Int32:
        return get<std::int32_t>(buffer, i);
    case DataType::Uint32:
        return get<std::uint32_t>(buffer, i);
    case DataType::Int64:
        return static_cast<double>(get<std::int64_t>(buffer, i));
    case DataType::Uint64:
        return static_cast<double>(get<std::uint64_t>(buffer, i));
    case DataType::Half:
        return halfToFloat(get<std::uint16_t>(buffer, i));
    case DataType::Float:
        return get<float>(buffer, i);
    case DataType::Double:
        return get<double>(buffer, i);
    case DataType::Bfloat16:
        return bfloat16ToFloat(get<std::uint16_t>(buffer, i));
    }
    return std::numeric_limits<double>::quiet_NaN();
}

std::uint16_t floatToHalf(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    const std::uint32_t sign = (x >> 16) & 0x8000u;
    std::uint32_t mantissa = x & 0x7FFFFFu;
    const int exponent = static_cast<int>((x >> 23) & 0xFFu);
    if (exponent == 0xFF)
        return static_cast<std::uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
    const int e = exponent - 127 + 15;
    if (e >= 0x1F)
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    std::uint32_t shift = 13, bits;
    if (e <= 0) { // a subnormal half: the implicit bit joins the mantissa, shifted further
        if (e < -10)
            return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        shift = static_cast<std::uint32_t>(14 - e);
        bits = mantissa >> shift;
    } else {
        bits = (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13);
    }
    const std::uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (bits & 1u)))
        ++bits; // a carry into the exponent is still right
    return static_cast<std::uint16_t>(sign | bits);
}

float halfToFloat(std::uint16_t h) {
    const std::uint32_t sign = (static_cast<std::uint32_t>(h) & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
    if (exponent == 0) {
        const float v = std::ldexp(static_cast<float>(mantissa), -24);
        return sign ? -v : v;
    }
    const std::uint32_t bits = exponent == 0x1F ? (sign | 0x7F800000u | (mantissa << 13))
                                                : (sign | ((exponent + 112) << 23) | (mantissa << 13));
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

std::uint16_t floatToBfloat16(float f) {
    std::uint32_t x;
    std::memcpy(&x, &f, sizeof x);
    if (std::isnan(f))
        return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    x += 0x7FFFu + ((x >> 16) & 1u);
    return static_cast<std::uint16_t>(x >> 16);
}

float bfloat16ToFloat(std::uint16_t b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

} // namespace rackscope::bench
