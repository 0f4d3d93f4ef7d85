<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>rackscope::gui::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="19"/>
        <source>rackscope %1</source>
        <translation>rackscope %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="25"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="26"/>
        <source>&amp;Open topology…</source>
        <translation>打开拓扑(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="27"/>
        <source>Show this &amp;machine</source>
        <translation>显示本机(&amp;M)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="29"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="36"/>
        <source>rackscope-agent on this machine</source>
        <translation>本机的 rackscope-agent</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="39"/>
        <location filename="../app/gui/main_window.cpp" line="50"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="39"/>
        <source>Could not read this machine: %1</source>
        <translation>无法读取本机拓扑：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="50"/>
        <source>Could not read %1:
%2</source>
        <translation>无法读取 %1：
%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="60"/>
        <source>Open topology</source>
        <translation>打开拓扑</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="61"/>
        <source>Topologies (*.xml *.txt);;All files (*)</source>
        <translation>拓扑文件 (*.xml *.txt);;所有文件 (*)</translation>
    </message>
</context>
</TS>
