#pragma once
// What the fleet asks a person, asked in the GUI: an unknown host key (with
// its fingerprint) and a password or keyboard-interactive answer (never
// kept). The fleet asks from its worker threads; the dialogs open on the GUI
// thread without blocking it, and the worker waits for the answer or gives
// up when the fleet is stopped or replaced (the dialog then closes).
#include "transport/ssh_connection.h"

class QMessageBox;
class QWidget;

namespace rackscope::gui {

// The question about an unknown key, not yet shown; its AcceptRole button trusts the key.
QMessageBox* hostKeyQuestion(QWidget* parent, const HostKeyFacts& key);

// Fills the options' callbacks with dialogs parented to `parent`.
void useDialogsFor(SshOptions& options, QWidget* parent);

} // namespace rackscope::gui
