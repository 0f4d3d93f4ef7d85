<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="25"/>
        <source>Unknown server</source>
        <translation>未知服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="26"/>
        <source>The server %1 is not in known_hosts.

Its %2 key has the fingerprint
%3

Compare it with the one your administrator gives (ssh-keygen -lf on the server). Trust it and record it in known_hosts?</source>
        <translation>服务器 %1 不在 known_hosts 中。

它的 %2 密钥指纹为
%3

请与管理员提供的指纹核对（在服务器上运行 ssh-keygen -lf）。信任并记录到 known_hosts 吗？</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="31"/>
        <source>Trust and connect</source>
        <translation>信任并连接</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="32"/>
        <source>Do not connect</source>
        <translation>不连接</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="50"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::ConnectDialog</name>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="22"/>
        <source>Connect to servers</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="26"/>
        <source>gpu[001-064],login</source>
        <translation>gpu[001-064],login</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="27"/>
        <source>~/.ssh/config</source>
        <translation>~/.ssh/config</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="28"/>
        <source>~/.ssh/known_hosts</source>
        <translation>~/.ssh/known_hosts</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="33"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="35"/>
        <source>&amp;Hosts:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="36"/>
        <source>SSH &amp;config:</source>
        <translation>SSH 配置(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="37"/>
        <source>&amp;Known hosts:</source>
        <translation>已知主机(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="38"/>
        <source>At &amp;once:</source>
        <translation>同时连接(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="39"/>
        <source>&amp;Timeout per stage:</source>
        <translation>每阶段超时(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="41"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="54"/>
        <source>The host list cannot be read: %1</source>
        <translation>无法读取主机列表：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="54"/>
        <source>it is empty</source>
        <translation>列表为空</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="26"/>
        <source>rackscope %1</source>
        <translation>rackscope %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="32"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="33"/>
        <source>&amp;Open topology…</source>
        <translation>打开拓扑(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="34"/>
        <source>Show this &amp;machine</source>
        <translation>显示本机(&amp;M)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="35"/>
        <source>&amp;Connect to servers…</source>
        <translation>连接服务器(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="36"/>
        <source>&amp;Refresh servers</source>
        <translation>刷新服务器(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="37"/>
        <source>S&amp;top connecting</source>
        <translation>停止连接(&amp;T)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="41"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="42"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="42"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="42"/>
        <source>Seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="45"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="70"/>
        <source>Cannot connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="75"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="82"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="104"/>
        <source>failed at %1: %2</source>
        <translation>在 %1 阶段失败：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="110"/>
        <source>ok (connection reused)</source>
        <translation>正常（复用连接）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="110"/>
        <source>ok (agent %1)</source>
        <translation>正常（代理：%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="125"/>
        <source>rackscope-agent on this machine</source>
        <translation>本机的 rackscope-agent</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="158"/>
        <source>%1 of %2 servers answered</source>
        <translation>%2 台服务器中已有 %1 台应答</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="70"/>
        <location filename="../app/gui/main_window.cpp" line="128"/>
        <location filename="../app/gui/main_window.cpp" line="140"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="128"/>
        <source>Could not read this machine: %1</source>
        <translation>无法读取本机拓扑：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="140"/>
        <source>Could not read %1:
%2</source>
        <translation>无法读取 %1：
%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="151"/>
        <source>Open topology</source>
        <translation>打开拓扑</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="152"/>
        <source>Topologies (*.xml *.txt);;All files (*)</source>
        <translation>拓扑文件 (*.xml *.txt);;所有文件 (*)</translation>
    </message>
</context>
</TS>
