#pragma once
// A TCP connection from this machine, as a ByteStream: for a service the user reaches directly (NCCL's RAS
// port on the machine rackscope runs on).
#include "byte_stream.h"

namespace rackscope {

// Connects to host:port (each address the name resolves to, in turn) within timeoutMs; null and *error
// ("127.0.0.1:28028: Connection refused") when none answers.
std::unique_ptr<ByteStream> connectTcp(const QString& host, quint16 port, int timeoutMs, QString* error);

} // namespace rackscope
