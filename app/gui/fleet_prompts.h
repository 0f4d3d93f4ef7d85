#pragma once
// What the fleet asks a person, asked in the GUI: an unknown host key (with
// its fingerprint) and a password or keyboard-interactive answer (never
// kept). The fleet asks from its worker threads; the dialogs open on the GUI
// thread and the worker waits for the answer.
#include "transport/ssh_connection.h"

class QWidget;

namespace rackscope::gui {

// Shows the question; true when the person trusts the key.
bool askAboutHostKey(QWidget* parent, const HostKeyFacts& key);

// Fills the options' callbacks with dialogs parented to `parent`.
void useDialogsFor(SshOptions& options, QWidget* parent);

} // namespace rackscope::gui
