#include "curl_api.h"

namespace rsload {
namespace {

template <class F> bool bind(const rsagent::DynLib& lib, const char* name, F& slot, std::string* missing) {
    slot = lib.get<F>(name);
    if (!slot && missing->empty())
        *missing = name;
    return slot != nullptr;
}

struct Opened {
    std::unique_ptr<rsagent::DynLib> lib;
    CurlApi api;
    std::string error;
};

Opened open() {
    Opened o;
    for (const char* soname : {"libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"}) {
        o.lib = std::make_unique<rsagent::DynLib>(soname);
        if (o.lib->loaded())
            break;
    }
    if (!o.lib->loaded()) {
        o.error = "libcurl is not installed on this host (" + o.lib->error() + "); install libcurl4";
        return o;
    }
    CurlApi& a = o.api;
    std::string missing;
    bind(*o.lib, "curl_global_init", a.globalInit, &missing);
    bind(*o.lib, "curl_easy_init", a.easyInit, &missing);
    bind(*o.lib, "curl_easy_setopt", a.easySetopt, &missing);
    bind(*o.lib, "curl_easy_getinfo", a.easyGetinfo, &missing);
    bind(*o.lib, "curl_easy_cleanup", a.easyCleanup, &missing);
    bind(*o.lib, "curl_easy_strerror", a.easyStrerror, &missing);
    bind(*o.lib, "curl_multi_init", a.multiInit, &missing);
    bind(*o.lib, "curl_multi_setopt", a.multiSetopt, &missing);
    bind(*o.lib, "curl_multi_add_handle", a.multiAddHandle, &missing);
    bind(*o.lib, "curl_multi_remove_handle", a.multiRemoveHandle, &missing);
    bind(*o.lib, "curl_multi_socket_action", a.multiSocketAction, &missing);
    bind(*o.lib, "curl_multi_info_read", a.multiInfoRead, &missing);
    bind(*o.lib, "curl_multi_cleanup", a.multiCleanup, &missing);
    bind(*o.lib, "curl_multi_strerror", a.multiStrerror, &missing);
    bind(*o.lib, "curl_slist_append", a.slistAppend, &missing);
    bind(*o.lib, "curl_slist_free_all", a.slistFreeAll, &missing);
    bind(*o.lib, "curl_version_info", a.versionInfo, &missing);
    if (!missing.empty()) {
        o.error = o.lib->path() + " lacks " + missing;
        return o;
    }
    const curl_version_info_data* info = a.versionInfo(CURLVERSION_NOW);
    // curl_multi_socket_action and the socket callbacks are old; this is only a floor against oddities.
    if (!info || info->version_num < 0x073e00) {
        o.error =
            std::string("libcurl ") + (info ? info->version : "?") + " is too old (7.62 or later is needed)";
        return o;
    }
    a.version = std::string("libcurl/") + info->version +
                (info->ssl_version ? std::string(" ") + info->ssl_version : "");
    if (a.globalInit(CURL_GLOBAL_DEFAULT) != CURLE_OK)
        o.error = "curl_global_init failed";
    return o;
}

} // namespace

const CurlApi* openCurl(std::string* why) {
    static const Opened opened = open(); // thread-safe, once; the library stays open for the process
    if (!opened.error.empty()) {
        if (why)
            *why = opened.error;
        return nullptr;
    }
    return &opened.api;
}

} // namespace rsload
