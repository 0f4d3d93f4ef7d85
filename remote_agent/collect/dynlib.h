#pragma once
// Optional libraries (libibverbs, NVML, NCCL, CUDA) are opened at run time
// so one binary runs on a bare server and on a full GPU node.
#include <string>

namespace rsagent {

class DynLib {
public:
    explicit DynLib(const char* soname);
    ~DynLib();
    DynLib(const DynLib&) = delete;
    DynLib& operator=(const DynLib&) = delete;

    bool loaded() const { return handle_ != nullptr; }
    const std::string& error() const { return error_; } // dlerror() when not loaded
    std::string path() const;                           // the file actually opened
    template <class F> F get(const char* symbol) const { return reinterpret_cast<F>(raw(symbol)); }

private:
    void* raw(const char* symbol) const;
    void* handle_ = nullptr;
    std::string error_;
};

} // namespace rsagent
