<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>rackscope::gui::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="18"/>
        <source>rackscope %1</source>
        <translation>rackscope %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="24"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="25"/>
        <source>&amp;Open topology…</source>
        <translation>打开拓扑(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="26"/>
        <source>Show this &amp;machine</source>
        <translation>显示本机(&amp;M)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="28"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="35"/>
        <location filename="../app/gui/main_window.cpp" line="46"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="35"/>
        <source>Could not read this machine: %1</source>
        <translation>无法读取本机拓扑：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="46"/>
        <source>Could not read %1:
%2</source>
        <translation>无法读取 %1：
%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="56"/>
        <source>Open topology</source>
        <translation>打开拓扑</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="57"/>
        <source>Topologies (*.xml *.txt);;All files (*)</source>
        <translation>拓扑文件 (*.xml *.txt);;所有文件 (*)</translation>
    </message>
</context>
</TS>
