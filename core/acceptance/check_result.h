#pragma once
// What a rack check says about one server: for each check of the catalogue a
// verdict, and the items behind it, each with its evidence and what to do.
#include "analysis/finding.h"

#include <QString>
#include <vector>

namespace rackscope {

// In order of worse: the worst verdict of a server's checks is its verdict, and the worst of the rack's is
// the exit status (pass 0, unknown or warn 1, fail 2).
enum class Verdict { Pass, Unknown, Warn, Fail };
QString verdictName(Verdict v); // "pass", "unknown", "warn", "fail"
std::optional<Verdict> verdictFromName(const QString& name);
Verdict worse(Verdict a, Verdict b);

// One observation of a check: the device or value it concerns, what was seen and where it came from, and
// what to do when it is not a pass.
struct CheckItem {
    Verdict verdict = Verdict::Pass;
    QString subject; // "GPU3", "mlx5_4 port 1", "eth0"; empty: the server as a whole
    QString evidence;
    QString action;
};

struct CheckResult {
    QString id; // a CheckInfo id
    Verdict verdict = Verdict::Unknown;
    std::vector<CheckItem> items;
};

// A check of the catalogue: its stable id, what it asks, and how bad a failure is. A failed item of a
// check of severity Warning is a warn, of severity Error a fail.
struct CheckInfo {
    const char* id;
    const char* title;
    Severity severity;
};
const std::vector<CheckInfo>& checkCatalogue();
const CheckInfo* checkInfo(const QString& id);
// The verdict of a failed item of check `id`: Fail or Warn by its severity.
Verdict failedVerdict(const QString& id);

} // namespace rackscope
