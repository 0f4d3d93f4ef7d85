#pragma once
// What a rack should be, as its engineer wrote it (`check --expect FILE`): a JSON object of fact keys
// (rack_facts.h; a key may hold * and ? to name several: "mtu.ens*") and the value every device should
// have there: a number, a string (with * and ?), or a list of them, any of which will do.
//   {"gpu.count": 8, "gpu.model": "NVIDIA H100*", "port.rate": "400 Gb/sec*", "mtu.ens*": 9000,
//    "version.nvidia_driver": ["570.86.15", "570.124.06"], "lldp.ens1f0np0": "leaf-rail0-*"}
#include "rack_facts.h"

#include <QByteArray>
#include <optional>

namespace rackscope {

struct Expectation {
    struct Rule {
        QString key;         // a key or a pattern of keys
        QStringList allowed; // patterns of values
    };
    QString location;
    std::vector<Rule> rules;
};

// The expectation, or nothing and why (not JSON, not an object, a key rackscope does not know, a value
// that is neither a number, a string nor a list of them).
std::optional<Expectation> readExpectation(const QByteArray& json, const QString& location, QString* error);

// `text` matched against `pattern`, where * is any run of characters and ? any one character.
bool wildcardMatch(const QString& pattern, const QString& text);

} // namespace rackscope
