#include "slurm_topology_yaml.h"

#include <QRegularExpression>
#include <yaml.h>

namespace rackscope {
namespace {

// A read-only view of a libyaml document: scalars, a mapping's values by key, a sequence's items. Aliases
// resolve to shared nodes, and nothing here walks deeper than the schema, so a document of aliases costs
// no more than its size.
class YamlDoc {
public:
    explicit YamlDoc(yaml_document_t* doc) : doc_(doc) {}
    yaml_node_t* root() const { return yaml_document_get_root_node(doc_); }
    static int line(const yaml_node_t* n) { return n ? int(n->start_mark.line) + 1 : 0; }
    static QString scalar(const yaml_node_t* n) {
        if (!n || n->type != YAML_SCALAR_NODE)
            return {};
        return QString::fromUtf8(reinterpret_cast<const char*>(n->data.scalar.value),
                                 qsizetype(n->data.scalar.length));
    }
    static bool isMapping(const yaml_node_t* n) { return n && n->type == YAML_MAPPING_NODE; }
    yaml_node_t* value(const yaml_node_t* map, const char* key) const {
        if (!isMapping(map))
            return nullptr;
        for (yaml_node_pair_t* p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p)
            if (scalar(yaml_document_get_node(doc_, p->key)) == QLatin1String(key))
                return yaml_document_get_node(doc_, p->value);
        return nullptr;
    }
    QStringList keys(const yaml_node_t* map) const {
        QStringList out;
        if (isMapping(map))
            for (yaml_node_pair_t* p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; ++p)
                out << scalar(yaml_document_get_node(doc_, p->key));
        return out;
    }
    std::vector<yaml_node_t*> items(const yaml_node_t* seq) const {
        std::vector<yaml_node_t*> out;
        if (seq && seq->type == YAML_SEQUENCE_NODE)
            for (yaml_node_item_t* i = seq->data.sequence.items.start; i < seq->data.sequence.items.top; ++i)
                out.push_back(yaml_document_get_node(doc_, *i));
        return out;
    }

private:
    yaml_document_t* doc_;
};

bool truth(const QString& s) {
    static const QStringList yes{QStringLiteral("true"), QStringLiteral("yes"), QStringLiteral("on")};
    return yes.contains(s.toLower());
}

const QStringList kKinds{QStringLiteral("tree"), QStringLiteral("block"), QStringLiteral("flat"),
                         QStringLiteral("ring"), QStringLiteral("torus3d")};

void readTree(const YamlDoc& y, const yaml_node_t* tree, SlurmFabricBuilder& build) {
    for (const yaml_node_t* s : y.items(y.value(tree, "switches"))) {
        const QString text = QStringLiteral("switch: %1").arg(YamlDoc::scalar(y.value(s, "switch")));
        build.addSwitch(YamlDoc::scalar(y.value(s, "switch")), YamlDoc::scalar(y.value(s, "children")),
                        YamlDoc::scalar(y.value(s, "nodes")), YamlDoc::line(s), text);
    }
}

void readBlock(const YamlDoc& y, const yaml_node_t* block, SlurmFabricBuilder& build) {
    for (const yaml_node_t* size : y.items(y.value(block, "block_sizes")))
        build.addBlockSize(YamlDoc::scalar(size), YamlDoc::line(size), QStringLiteral("block_sizes"));
    for (const yaml_node_t* b : y.items(y.value(block, "blocks"))) {
        const QString name = YamlDoc::scalar(y.value(b, "block"));
        build.addBlock(name, YamlDoc::scalar(y.value(b, "nodes")), YamlDoc::line(b),
                       QStringLiteral("block: %1").arg(name));
    }
}

} // namespace

bool looksLikeSlurmTopologyYaml(const QByteArray& text) {
    return QRegularExpression(QStringLiteral("^-\\s+topology:\\s*\\S"), QRegularExpression::MultilineOption)
        .match(QString::fromUtf8(text.left(64 * 1024)))
        .hasMatch();
}

SlurmTopologyYamlImport importSlurmTopologyYaml(const QByteArray& text, const QString& location) {
    SlurmTopologyYamlImport out;
    yaml_parser_t parser;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.constData()),
                                 size_t(text.size()));
    yaml_document_t doc;
    if (!yaml_parser_load(&parser, &doc)) {
        out.error = QStringLiteral("not valid YAML at line %1, column %2: %3")
                        .arg(parser.problem_mark.line + 1)
                        .arg(parser.problem_mark.column + 1)
                        .arg(QString::fromUtf8(parser.problem ? parser.problem : "unreadable"));
        yaml_parser_delete(&parser);
        return out;
    }
    const YamlDoc y(&doc);
    SlurmFabricBuilder build(location, SlurmFabricBuilder::kYamlKeys);
    const std::vector<yaml_node_t*> entries = y.items(y.root());
    // The cluster's default tree and block, else the first of each.
    const yaml_node_t *tree = nullptr, *block = nullptr;
    for (const yaml_node_t* e : entries) {
        SlurmTopologyEntry t;
        t.name = YamlDoc::scalar(y.value(e, "topology"));
        t.clusterDefault = truth(YamlDoc::scalar(y.value(e, "cluster_default")));
        t.line = YamlDoc::line(e);
        for (const QString& key : y.keys(e))
            if (key != QLatin1String("topology") && key != QLatin1String("cluster_default") &&
                t.kind.isEmpty())
                t.kind = key;
        if (t.name.isEmpty() || t.kind.isEmpty())
            build.diagnose(t.line, t.name,
                           QStringLiteral("a topology needs a name and a kind (tree, block, flat, ...)"));
        else if (t.kind == QLatin1String("tree") && (!tree || t.clusterDefault))
            tree = e;
        else if (t.kind == QLatin1String("block") && (!block || t.clusterDefault))
            block = e;
        out.topologies.push_back(t);
    }
    for (SlurmTopologyEntry& t : out.topologies) {
        const yaml_node_t* e = entries[std::size_t(&t - out.topologies.data())];
        t.used = e == tree || e == block;
        if (!t.used && kKinds.mid(2).contains(t.kind))
            build.diagnose(
                t.line, QStringLiteral("topology: %1").arg(t.name),
                QStringLiteral("a %1 topology: read, not derived (rackscope derives tree and block)")
                    .arg(t.kind));
        else if (!t.used && !kKinds.contains(t.kind) && !t.kind.isEmpty())
            build.diagnose(t.line, QStringLiteral("topology: %1").arg(t.name),
                           QStringLiteral("a topology of kind '%1', which this rackscope does not know")
                               .arg(t.kind.left(40)));
        else if (!t.used && !t.kind.isEmpty())
            build.diagnose(
                t.line, QStringLiteral("topology: %1").arg(t.name),
                QStringLiteral("another %1 topology, not the cluster's default: not read").arg(t.kind));
    }
    if (tree)
        readTree(y, y.value(tree, "tree"), build);
    if (block)
        readBlock(y, y.value(block, "block"), build);
    yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    SlurmTopologyImport r =
        build.finish(entries.empty() ? QStringLiteral("not a list of topologies")
                                     : QStringLiteral("no tree or block topology with switches or blocks"));
    out.fabric = std::move(r.fabric);
    if (out.error.isEmpty())
        out.error = r.error;
    return out;
}

} // namespace rackscope
