#pragma once
// The data each rank sends and what it must hold afterwards, so every result
// is checked element by element (nccl-tests' #wrong column). Values are small
// whole numbers chosen so that every reduction is exact in every data type
// (sum of ranks within the type's exact integers, products of at most one 2):
// a check can then demand equality, except an average in a floating type,
// which NCCL rounds and which is allowed its type's rounding.
#include "bench_geometry.h"
#include "bench_types.h"

#include <cstddef>
#include <cstdint>

namespace rackscope::bench {

struct DataSpec {
    DataType type = DataType::Float;
    RedOp op = RedOp::Sum;
    int ranks = 1;
    std::uint64_t seed = 0; // changes per pass, so a stale buffer is not mistaken for a result
};

double inputValue(int rank, std::size_t index, const DataSpec& spec);
double reducedValue(std::size_t index, const DataSpec& spec); // spec.op over every rank's inputValue

// Elements [first, first + n) of `rank`'s send buffer.
void fillInput(void* dst, std::size_t first, std::size_t n, int rank, const DataSpec& spec);
// Elements [first, first + n) of what `rank`'s receive buffer must hold after `op`.
void fillExpected(Op op, const Geometry& g, int rank, int root, void* dst, std::size_t first, std::size_t n,
                  const DataSpec& spec);
// Whether `rank`'s receive buffer has a defined result (reduce: the root's only).
bool hasResult(Op op, int rank, int root);
std::size_t countWrong(const void* got, const void* expected, std::size_t n, const DataSpec& spec);

void store(void* buffer, std::size_t i, DataType t, double value);
double load(const void* buffer, std::size_t i, DataType t);

// IEEE binary16 and bfloat16, rounded to nearest even, for hosts without CUDA's headers.
std::uint16_t floatToHalf(float f);
float halfToFloat(std::uint16_t h);
std::uint16_t floatToBfloat16(float f);
float bfloat16ToFloat(std::uint16_t b);

} // namespace rackscope::bench
