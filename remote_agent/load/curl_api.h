#pragma once
// libcurl, opened at run time like the agent's other optional libraries: a
// server without libcurl still runs the agent, and a load run there says why
// it cannot start. Only the multi interface's event-driven half is used.
#include "collect/dynlib.h"

#include <curl/curl.h>
#include <memory>
#include <string>

namespace rsload {

struct CurlApi {
    CURLcode (*globalInit)(long flags) = nullptr;
    CURL* (*easyInit)() = nullptr;
    CURLcode (*easySetopt)(CURL*, CURLoption, ...) = nullptr;
    CURLcode (*easyGetinfo)(CURL*, CURLINFO, ...) = nullptr;
    void (*easyCleanup)(CURL*) = nullptr;
    const char* (*easyStrerror)(CURLcode) = nullptr;
    CURLM* (*multiInit)() = nullptr;
    CURLMcode (*multiSetopt)(CURLM*, CURLMoption, ...) = nullptr;
    CURLMcode (*multiAddHandle)(CURLM*, CURL*) = nullptr;
    CURLMcode (*multiRemoveHandle)(CURLM*, CURL*) = nullptr;
    CURLMcode (*multiSocketAction)(CURLM*, curl_socket_t, int, int*) = nullptr;
    CURLMsg* (*multiInfoRead)(CURLM*, int*) = nullptr;
    CURLMcode (*multiCleanup)(CURLM*) = nullptr;
    const char* (*multiStrerror)(CURLMcode) = nullptr;
    curl_slist* (*slistAppend)(curl_slist*, const char*) = nullptr;
    void (*slistFreeAll)(curl_slist*) = nullptr;
    curl_version_info_data* (*versionInfo)(CURLversion) = nullptr;

    std::string version; // "libcurl/7.88.1 OpenSSL/3.0.17": what a result records
};

// The process-wide libcurl, opened once; null with *why set when it cannot be.
const CurlApi* openCurl(std::string* why);

} // namespace rsload
