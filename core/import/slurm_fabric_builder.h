#pragma once
// The fabric Slurm's topology files describe, whichever form wrote it (topology.conf's SwitchName= and
// BlockName= lines, topology.yaml's tree and block topologies): switches with their child switches and
// nodes, and blocks of nodes.
#include "model/fabric.h"

#include <map>
#include <set>

namespace rackscope {

struct SlurmTopologyImport {
    std::optional<Fabric> fabric;
    QString error;
};

class SlurmFabricBuilder {
public:
    // How the file's form names its keys, for diagnostics in the reader's own words.
    struct Keys {
        const char* switches; // "Switches=", "children:"
        const char* nodes;    // "Nodes=", "nodes:"
        const char* sizes;    // "BlockSizes", "block_sizes"
        const char* declare;  // "SwitchName=", "switch:"
    };
    static constexpr Keys kConfKeys{"Switches=", "Nodes=", "BlockSizes", "SwitchName="};
    static constexpr Keys kYamlKeys{"children:", "nodes:", "block_sizes", "switch:"};

    SlurmFabricBuilder(const QString& location, Keys keys) : keys_(keys) { f_.source = location; }

    // `switches` and `nodes` are hostlists as written; `text` is the declaration, for diagnostics.
    void addSwitch(const QString& name, const QString& switches, const QString& nodes, int line,
                   const QString& text);
    void addBlock(const QString& name, const QString& nodes, int line, const QString& text);
    void addBlockSize(const QString& size, int line, const QString& text);
    void describe(const QString& name, const QString& description) { descriptions_[name] = description; }
    void diagnose(int line, const QString& text, const QString& message);
    // `empty`: the error when nothing was declared.
    SlurmTopologyImport finish(const QString& empty);

private:
    bool expand(const char* key, const QString& list, int line, const QString& text, QStringList* out);
    std::size_t node(FabricNodeKind kind, const QString& name, int line);

    struct Child {
        QString parent, child;
        int line;
        QString text;
    };
    Keys keys_;
    Fabric f_;
    std::map<QString, QString> descriptions_;
    std::map<QString, std::size_t> byName_;
    std::set<QString> declared_;
    std::vector<Child> children_;
};

} // namespace rackscope
