#include "bench_options.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <limits>

namespace rackscope::bench {
namespace {

bool parseInt(std::string_view text, int& value) {
    if (text.empty())
        return false;
    const char* end = text.data() + text.size();
    int base = 10;
    std::string_view digits = text;
    const bool negative = digits.front() == '-';
    if (negative)
        digits.remove_prefix(1);
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
        base = 16; // strtol(..., 0) in nccl-tests accepts 0x
        digits.remove_prefix(2);
    }
    long long parsed = 0;
    const auto [ptr, ec] = std::from_chars(digits.data(), end, parsed, base);
    if (ec != std::errc() || ptr != end)
        return false;
    if (negative)
        parsed = -parsed;
    if (parsed < std::numeric_limits<int>::min() || parsed > std::numeric_limits<int>::max())
        return false;
    value = static_cast<int>(parsed);
    return true;
}

struct Flag {
    char shortName;
    const char* longName;
    std::function<std::string(std::string_view, Options&)> apply; // returns an error or ""
};

std::function<std::string(std::string_view, Options&)> intFlag(int Options::*field, int minimum,
                                                               int maximum) {
    return [=](std::string_view text, Options& o) -> std::string {
        int v = 0;
        if (!parseInt(text, v) || v < minimum || v > maximum)
            return "must be a whole number from " + std::to_string(minimum) + " to " +
                   std::to_string(maximum);
        o.*field = v;
        return {};
    };
}

std::function<std::string(std::string_view, Options&)> sizeFlag(std::size_t Options::*field,
                                                                const char* what) {
    return [=](std::string_view text, Options& o) -> std::string {
        std::size_t v = 0;
        if (!parseByteSize(text, v))
            return std::string("invalid size specified for '") + what + "'";
        o.*field = v;
        return {};
    };
}

std::function<std::string(std::string_view, Options&)> countFlag(std::size_t Options::*field) {
    return [=](std::string_view text, Options& o) -> std::string {
        int v = 0;
        if (!parseInt(text, v) || v < 0)
            return "must be a whole number, 0 or more";
        o.*field = static_cast<std::size_t>(v);
        return {};
    };
}

std::string applyRedOp(std::string_view text, Options& o) {
    if (text == "all") {
        o.redOps = allRedOps();
        return {};
    }
    const auto op = redOpFromName(text);
    if (!op)
        return "unknown reduction operation (sum, prod, max, min, avg or all)";
    o.redOps = {*op};
    return {};
}

std::string applyType(std::string_view text, Options& o) {
    if (text == "all") {
        o.types = allDataTypes();
        return {};
    }
    const auto t = dataTypeFromName(text);
    if (!t)
        return "unknown data type (int8, uint8, int32, uint32, int64, uint64, half, float, double, bfloat16 "
               "or all)";
    o.types = {*t};
    return {};
}

const std::vector<Flag>& flags() {
    constexpr int kMax = std::numeric_limits<int>::max();
    static const std::vector<Flag> all{
        {'t', "nthreads", intFlag(&Options::threads, 1, kMax)},
        {'g', "ngpus", intFlag(&Options::gpus, 1, 1024)},
        {'b', "minbytes", sizeFlag(&Options::minBytes, "minbytes")},
        {'e', "maxbytes", sizeFlag(&Options::maxBytes, "maxbytes")},
        {'i', "stepbytes", countFlag(&Options::stepBytes)},
        {'f', "stepfactor", countFlag(&Options::stepFactor)},
        {'n', "iters", intFlag(&Options::iters, 1, kMax)},
        {'m', "agg_iters", intFlag(&Options::aggIters, 1, kMax)},
        {'w', "warmup_iters", intFlag(&Options::warmupIters, 0, kMax)},
        {'p', "parallel_init", intFlag(&Options::parallelInit, 0, 1)},
        {'c', "check", intFlag(&Options::check, 0, kMax)},
        {'o', "op", applyRedOp},
        {'d', "datatype", applyType},
        {'r', "root", intFlag(&Options::root, -1, kMax)},
        {'z', "blocking", intFlag(&Options::blocking, 0, 1)},
        {'y', "stream_null", intFlag(&Options::streamNull, 0, 1)},
        {'T', "timeout", intFlag(&Options::timeoutSec, 0, kMax)},
        {'G', "cudagraph", intFlag(&Options::cudaGraphLaunches, 0, kMax)},
        {'C', "report_cputime", intFlag(&Options::reportCpuTime, 0, 1)},
        {'a', "average", intFlag(&Options::average, 0, 3)},
    };
    return all;
}

const Flag* findFlag(std::string_view arg, std::string_view& inlineValue, bool& hasInline) {
    hasInline = false;
    if (arg.size() > 2 && arg.substr(0, 2) == "--") {
        std::string_view name = arg.substr(2);
        if (const auto eq = name.find('='); eq != std::string_view::npos) {
            inlineValue = name.substr(eq + 1);
            hasInline = true;
            name = name.substr(0, eq);
        }
        for (const Flag& f : flags())
            if (name == f.longName)
                return &f;
        return nullptr;
    }
    if (arg.size() >= 2 && arg[0] == '-') {
        if (arg.size() > 2) {
            inlineValue = arg.substr(2);
            hasInline = true;
        }
        for (const Flag& f : flags())
            if (arg[1] == f.shortName)
                return &f;
    }
    return nullptr;
}

} // namespace

bool parseByteSize(std::string_view text, std::size_t& bytes) {
    if (text.empty())
        return false;
    double number = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || !(number >= 0))
        return false;
    std::string_view unit(ptr, static_cast<std::size_t>(text.data() + text.size() - ptr));
    double scale = 1;
    if (unit.size() == 1) {
        switch (unit[0]) {
        case 'K':
        case 'k':
            scale = 1024.0;
            break;
        case 'M':
        case 'm':
            scale = 1024.0 * 1024;
            break;
        case 'G':
        case 'g':
            scale = 1024.0 * 1024 * 1024;
            break;
        default:
            return false;
        }
    } else if (!unit.empty()) {
        return false;
    }
    const double value = number * scale;
    if (value > 1e18)
        return false;
    bytes = static_cast<std::size_t>(value);
    return true;
}

ParsedOptions parseOptions(const std::vector<std::string>& args) {
    ParsedOptions result;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string_view arg = args[i];
        if (arg == "-h" || arg == "--help") {
            result.help = true;
            continue;
        }
        std::string_view value;
        bool hasInline = false;
        const Flag* flag = findFlag(arg, value, hasInline);
        if (!flag) {
            result.error = "invalid option '" + std::string(arg) + "'";
            return result;
        }
        if (!hasInline) {
            if (i + 1 >= args.size()) {
                result.error = "option '" + std::string(arg) + "' needs a value";
                return result;
            }
            value = args[++i];
        }
        if (std::string why = flag->apply(value, result.options); !why.empty()) {
            result.error = "-" + std::string(1, flag->shortName) + " (--" + flag->longName + ") '" +
                           std::string(value) + "': " + why;
            return result;
        }
    }
    const Options& o = result.options;
    if (o.threads != 1)
        result.error =
            "-t " + std::to_string(o.threads) +
            ": rackscope-nccl-bench drives its GPUs from one thread per process; use -g for several GPUs "
            "per process or start more processes";
    else if (o.maxBytes < o.minBytes)
        result.error = "invalid sizes for 'minbytes' and 'maxbytes': " + std::to_string(o.minBytes) + " > " +
                       std::to_string(o.maxBytes);
    else if (o.stepFactor <= 1 && o.stepBytes == 0 && o.maxBytes > o.minBytes)
        result.error = "with -f 1 the sizes grow by -i, which must be above 0";
    return result;
}

std::vector<std::size_t> sweepSizes(const Options& o) {
    std::vector<std::size_t> sizes;
    for (std::size_t size = o.minBytes; size <= o.maxBytes;) {
        sizes.push_back(size);
        const std::size_t next = o.stepFactor > 1 ? size * o.stepFactor : size + o.stepBytes;
        if (next <= size)
            break; // 0 bytes times a factor, or -i 0 with one size
        size = next;
    }
    return sizes;
}

std::string usage(std::string_view program) {
    std::string text =
        "USAGE: " + std::string(program) + " [OPTIONS]   (or: rackscope-nccl-bench OPERATION [OPTIONS])\n";
    text += "  nccl-tests' flags, with its defaults:\n"
            "  -t,--nthreads <1>            -g,--ngpus <GPUs per process>\n"
            "  -b,--minbytes <size>         -e,--maxbytes <size>    (K, M, G: powers of 1024)\n"
            "  -i,--stepbytes <bytes>       -f,--stepfactor <factor>\n"
            "  -n,--iters <n>               -m,--agg_iters <n>      -w,--warmup_iters <n>\n"
            "  -p,--parallel_init <0/1>     -c,--check <passes>\n"
            "  -o,--op <sum/prod/max/min/avg/all>\n"
            "  -d,--datatype <int8/uint8/int32/uint32/int64/uint64/half/float/double/bfloat16/all>\n"
            "  -r,--root <rank, -1 for all> -z,--blocking <0/1>     -y,--stream_null <0/1>\n"
            "  -T,--timeout <seconds>       -G,--cudagraph <launches> -C,--report_cputime <0/1>\n"
            "  -a,--average <0 rank 0, 1 mean, 2 min, 3 max>\n"
            "  -h,--help\n"
            "OPERATION: ";
    for (Op op : allOps())
        text += std::string(opName(op)) + (op == Op::SendRecv ? "\n" : ", ");
    return text;
}

} // namespace rackscope::bench
