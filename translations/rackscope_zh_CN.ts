<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="81"/>
        <source>Unknown server</source>
        <translation>未知服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="82"/>
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
        <location filename="../app/gui/fleet_prompts.cpp" line="87"/>
        <source>Trust and connect</source>
        <translation>信任并连接</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="88"/>
        <source>Do not connect</source>
        <translation>不连接</translation>
    </message>
    <message>
        <location filename="../app/gui/fleet_prompts.cpp" line="114"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
</context>
<context>
    <name>rackscope</name>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="621"/>
        <source>GPU to the NIC NCCL would use, with its path</source>
        <translation>GPU 到 NCCL 将使用的网卡，及其路径</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="624"/>
        <source>cable</source>
        <translation>线缆</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="628"/>
        <source>C2C: GPU on NVLink-C2C to its CPU (Grace)</source>
        <translation>C2C：GPU 经 NVLink-C2C 连到其 CPU（Grace）</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="634"/>
        <source>NVLink domain, every GPU registered: %1</source>
        <translation>NVLink 域，所有 GPU 均已注册：%1</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="639"/>
        <source>NVLink domain with a problem: %1</source>
        <translation>有问题的 NVLink 域：%1</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="642"/>
        <source>rail %1 (%2)</source>
        <translation>轨道 %1（%2）</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="672"/>
        <location filename="../core/render/diagram_painter.cpp" line="689"/>
        <source>Legend</source>
        <translation>图例</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_painter.cpp" line="727"/>
        <source>%1 · rackscope %2 · source: %3</source>
        <translation>%1 · rackscope %2 · 来源：%3</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="85"/>
        <source>GPU–NIC path crosses the CPU socket</source>
        <translation>GPU–网卡路径跨越 CPU 插槽</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="87"/>
        <source>GPU–NIC pair cannot use GPUDirect RDMA</source>
        <translation>GPU–网卡对无法使用 GPUDirect RDMA</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="89"/>
        <source>PCIe link degraded</source>
        <translation>PCIe 链路降级</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="91"/>
        <source>link below expected speed</source>
        <translation>链路低于预期速率</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="93"/>
        <source>port or link down</source>
        <translation>端口或链路断开</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="95"/>
        <location filename="../core/render/diagram_style.cpp" line="129"/>
        <source>rail break</source>
        <translation>轨道错接</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="97"/>
        <source>slow host (straggler hunt)</source>
        <translation>慢节点（掉队者排查）</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="99"/>
        <source>load run without GPUDirect RDMA or RDMA</source>
        <translation>压测中未用上 GPUDirect RDMA 或 RDMA</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="101"/>
        <source>GPU reaches its NIC only through an NVLink peer (PXN)</source>
        <translation>GPU 只能经由 NVLink 对等 GPU 到达其网卡（PXN）</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="104"/>
        <source>GPU outside its NVLink domain, not registered or unhealthy</source>
        <translation>GPU 脱离其 NVLink 域、未注册或不健康</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="107"/>
        <source>server failed the rack check</source>
        <translation>未通过机架检查的服务器</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="109"/>
        <source>server warned by the rack check</source>
        <translation>机架检查给出警告的服务器</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="111"/>
        <source>job rank missing, dead or behind (NCCL RAS)</source>
        <translation>作业 rank 缺失、失效或落后（NCCL RAS）</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="119"/>
        <source>cross-socket</source>
        <translation>跨插槽</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="121"/>
        <source>no GDR</source>
        <translation>无 GDR</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="123"/>
        <source>PCIe</source>
        <translation>PCIe</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="125"/>
        <source>slow link</source>
        <translation>链路降速</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="127"/>
        <source>port down</source>
        <translation>端口断开</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="131"/>
        <source>slow</source>
        <translation>慢</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="133"/>
        <source>NCCL</source>
        <translation>NCCL</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="135"/>
        <source>PXN</source>
        <translation>PXN</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="139"/>
        <source>check: fail</source>
        <translation>检查：失败</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="141"/>
        <source>check: warn</source>
        <translation>检查：警告</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="143"/>
        <source>job rank</source>
        <translation>作业 rank</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="161"/>
        <source>core switch</source>
        <translation>核心交换机</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="163"/>
        <source>spine switch</source>
        <translation>脊交换机</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="165"/>
        <source>leaf switch</source>
        <translation>叶交换机</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="167"/>
        <source>switch</source>
        <translation>交换机</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="169"/>
        <source>server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="171"/>
        <source>CPU package</source>
        <translation>CPU 插槽</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="86"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="306"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="385"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="463"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="495"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="610"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="863"/>
        <source>source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="87"/>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="88"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="387"/>
        <source>PCI address</source>
        <translation>PCI 地址</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="90"/>
        <source>PCI vendor:device</source>
        <translation>PCI 厂商:设备</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="95"/>
        <source>PCI class</source>
        <translation>PCI 类别</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="98"/>
        <location filename="../core/render/diagram_style.cpp" line="173"/>
        <source>NUMA node</source>
        <translation>NUMA 节点</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="100"/>
        <source>socket</source>
        <translation>CPU 插槽</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="101"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="467"/>
        <source>CPU affinity</source>
        <translation>CPU 亲和性</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="103"/>
        <source>CUDA device</source>
        <translation>CUDA 设备号</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="104"/>
        <source>PCIe link now</source>
        <translation>PCIe 当前链路</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="105"/>
        <source>PCIe link capable</source>
        <translation>PCIe 最大链路</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="107"/>
        <source>RDMA</source>
        <translation>RDMA</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="110"/>
        <source>RDMA devices</source>
        <translation>RDMA 设备</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="112"/>
        <source>net devices</source>
        <translation>网络接口</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="114"/>
        <source>speed</source>
        <translation>速率</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="119"/>
        <source>NVLink-C2C to its CPU</source>
        <translation>到其 CPU 的 NVLink-C2C</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="120"/>
        <source>%1 links, %2 GB/s in all</source>
        <translation>%1 条链路，共 %2 GB/s</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="125"/>
        <source>NCCL gdr attribute</source>
        <translation>NCCL gdr 属性</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="127"/>
        <source>ACS redirection above</source>
        <translation>上游的 ACS 重定向</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="253"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="581"/>
        <source>1 server</source>
        <translation>1 台服务器</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="254"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="582"/>
        <source>%1 servers</source>
        <translation>%1 台服务器</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="303"/>
        <source>%1 GPUs · %2 NICs</source>
        <translation>%1 个 GPU · %2 个网卡</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="309"/>
        <source>no GPU driver</source>
        <translation>无 GPU 驱动</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="310"/>
        <source>no RDMA driver</source>
        <translation>无 RDMA 驱动</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="311"/>
        <source>no GPUDirect</source>
        <translation>无 GPUDirect</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="312"/>
        <source>no GPU</source>
        <translation>无 GPU</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="319"/>
        <source>problem</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="325"/>
        <source>architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="327"/>
        <source>note</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="358"/>
        <source>Package %1</source>
        <translation>CPU 封装 %1</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="366"/>
        <source>CPU, NUMA %1</source>
        <translation>CPU，NUMA %1</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="367"/>
        <source>Group %1</source>
        <translation>分组 %1</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="371"/>
        <source>Host bridge</source>
        <translation>主机桥</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="462"/>
        <source>NUMA node %1</source>
        <translation>NUMA 节点 %1</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="466"/>
        <source>CPUs %1</source>
        <translation>CPU %1</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="494"/>
        <source>%1 fabric ports</source>
        <translation>%1 个网络端口</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="584"/>
        <source>%1 GPUs</source>
        <translation>%1 个 GPU</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="607"/>
        <source>%1 ports</source>
        <translation>%1 个端口</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="611"/>
        <source>GUID</source>
        <translation>GUID</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="612"/>
        <source>description</source>
        <translation>描述</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="614"/>
        <source>LID</source>
        <translation>LID</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="615"/>
        <source>tier</source>
        <translation>层级</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="619"/>
        <source>ports not active</source>
        <translation>未激活的端口</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="676"/>
        <source>ports</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="855"/>
        <location filename="../core/diagram/diagram_builder.cpp" line="864"/>
        <location filename="../core/render/diagram_painter.cpp" line="615"/>
        <location filename="../core/render/diagram_style.cpp" line="137"/>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="857"/>
        <source>every GPU pair, NV%1 or more</source>
        <translation>每对 GPU，NV%1 或以上</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="859"/>
        <source>%1 to %2: every pair, NV%3 or more</source>
        <translation>%1 至 %2：每对 GPU，NV%3 或以上</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="993"/>
        <source>NVLink domain %1 (ClusterUUID %2, CliqueId %3): every GPU registered</source>
        <translation>NVLink 域 %1（ClusterUUID %2，CliqueId %3）：所有 GPU 均已注册</translation>
    </message>
    <message numerus="yes">
        <location filename="../core/diagram/diagram_builder.cpp" line="999"/>
        <source>%n server(s)</source>
        <translation>
            <numerusform>%n 台服务器</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../core/diagram/diagram_builder.cpp" line="1001"/>
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 个 GPU</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../core/diagram/diagram_builder.cpp" line="1004"/>
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n 个问题</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="1041"/>
        <source>%1 → %2 (NCCL&apos;s NIC for it) crosses the CPU socket: %3</source>
        <translation>%1 → %2（NCCL 为其选择的网卡）跨越 CPU 插槽：%3</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="1051"/>
        <source>%1 → %2 goes over NVLink through %3 (PXN): %1 has no RDMA NIC within PXB of its own</source>
        <translation>%1 → %2 经 NVLink 通过 %3 转发（PXN）：%1 自身在 PXB 范围内没有 RDMA 网卡</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="1062"/>
        <source>%1 → %2 cannot use GPUDirect RDMA: %3</source>
        <translation>%1 → %2 无法使用 GPUDirect RDMA：%3</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="1112"/>
        <source>%1 was flagged slow by the straggler hunt</source>
        <translation>%1 被慢节点排查标记为慢</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="175"/>
        <source>PCIe host bridge</source>
        <translation>PCIe 主桥</translation>
    </message>
    <message>
        <location filename="../core/diagram/diagram_builder.cpp" line="375"/>
        <location filename="../core/render/diagram_style.cpp" line="177"/>
        <source>PCIe switch</source>
        <translation>PCIe 交换芯片</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="179"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="181"/>
        <source>NIC</source>
        <translation>网卡</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="183"/>
        <source>NVSwitch</source>
        <translation>NVSwitch</translation>
    </message>
    <message>
        <location filename="../core/render/diagram_style.cpp" line="185"/>
        <source>other PCI device</source>
        <translation>其他 PCI 设备</translation>
    </message>
    <message>
        <location filename="../core/analysis/device_paths.cpp" line="81"/>
        <source>stated by nvidia-smi topo -m</source>
        <translation>由 nvidia-smi topo -m 给出</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="139"/>
        <source>%1 (line %2: %3)</source>
        <translation>%1（第 %2 行：%3）</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="143"/>
        <source>sources disagree on %1</source>
        <translation>各来源在 %1 上不一致</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="150"/>
        <source>%1 is declared %2 but is cabled as a %3</source>
        <translation>%1 声明为%2，但按接线是%3</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="201"/>
        <source>%1 %2 is cabled to %3, the leaf of rail %4 (%5 of its %6 server ports are %4): on a rail-optimised fabric device k of every server reaches rail k, so traffic between rails crosses the spines</source>
        <translation>%1 %2 接到了 %3，即轨道 %4 的叶交换机（其 %6 个服务器端口中有 %5 个属于 %4）：在轨道优化网络中，每台服务器的第 k 个设备应接到轨道 k，否则轨道之间的流量要经过脊交换机</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="248"/>
        <source>%1 is oversubscribed %2:1 (%3 Gb/s to servers over %4 Gb/s to spines)</source>
        <translation>%1 收敛比为 %2:1（面向服务器 %3 Gb/s，面向脊交换机 %4 Gb/s）</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="303"/>
        <source>%1 runs at %2, the design expects %3</source>
        <translation>%1 运行在 %2，设计要求 %3</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="316"/>
        <source>%1 runs at %2 (%3 Gb/s) where %4 of %5 links between the same tiers run at %6 Gb/s</source>
        <translation>%1 运行在 %2（%3 Gb/s），而同层之间 %5 条链路中有 %4 条运行在 %6 Gb/s</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="329"/>
        <source>%1 port %2 is not active</source>
        <translation>%1 的端口 %2 未激活</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="336"/>
        <source>%1 is down</source>
        <translation>%1 已断开</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="340"/>
        <source>%1 is in the design, but no discovered source shows it up</source>
        <translation>%1 在设计中，但没有任何发现来源显示它处于连通状态</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="358"/>
        <source>%1 sends MTU %2 but %3 port %4 takes at most %5: larger packets are dropped</source>
        <translation>%1 发送 MTU %2，但 %3 的端口 %4 最多接受 %5：更大的包会被丢弃</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="377"/>
        <source>%1 uses MTU %2 where %3 of %4 hosts use %5: traffic between them is limited to the smaller</source>
        <translation>%1 使用 MTU %2，而 %4 台主机中有 %3 台使用 %5：它们之间的流量受限于较小者</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_analysis.cpp" line="396"/>
        <source>%1 reaches %2 leaf switch(es) where %3 of %4 hosts reach %5: a cable or port is missing or extra</source>
        <translation>%1 连到 %2 台叶交换机，而 %4 台主机中有 %3 台连到 %5 台：少了或多了一根线缆或一个端口</translation>
    </message>
    <message>
        <location filename="../core/analysis/fabric_merge.cpp" line="93"/>
        <source>%1: %2 says %3, %4 says %5 (kept %3)</source>
        <translation>%1：%2 说是 %3，%4 说是 %5（保留 %3）</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="58"/>
        <source>%1&apos;s nearest RDMA NIC, %2, is across the CPU socket (%3, %4): its network traffic crosses the inter-socket link.</source>
        <translation>%1 最近的 RDMA 网卡 %2 在另一个 CPU 插槽下（%3，%4）：它的网络流量要经过插槽间互联。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="68"/>
        <source>Whether %1 can use GPUDirect RDMA is unknown: it reaches the NICs through its CPU over NVLink-C2C (%2 GB/s) and the other CPU, where NCCL relays through an NVLink peer (PXN), but the source does not describe NVLink.</source>
        <translation>%1 能否使用 GPUDirect RDMA 未知：它经 NVLink-C2C（%2 GB/s）通过自己的 CPU 和另一颗 CPU 到达网卡，NCCL 在此会经由 NVLink 对等 GPU 中转（PXN），但来源未描述 NVLink。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="76"/>
        <source>Whether %1 can use GPUDirect RDMA is unknown: the source does not say enough about its NICs.</source>
        <translation>%1 能否使用 GPUDirect RDMA 未知：来源没有提供足够的网卡信息。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="85"/>
        <source>%1 has no NIC NCCL would use with GPUDirect RDMA (nearest: %2). Its network traffic is staged through host memory.</source>
        <translation>%1 没有 NCCL 可用于 GPUDirect RDMA 的网卡（最近的：%2）。它的网络流量要经主机内存中转。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="100"/>
        <source>%1 has no RDMA NIC within PXB of its own (%2 is %3 from it): NCCL sends its network traffic over NVLink through %4 (PXN), which uses %2 too.</source>
        <translation>%1 自身在 PXB 范围内没有 RDMA 网卡（%2 与它的路径为 %3）：NCCL 经 NVLink 通过 %4 中转发送其网络流量（PXN），%4 也在使用 %2。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="127"/>
        <source>NCCL would give %1 to %2 GPUs (%3) but %4 to %5: the busiest NIC limits every collective.</source>
        <translation>NCCL 会把 %1 分给 %2 个 GPU（%3），而 %4 只分给 %5 个：最忙的网卡限制每一次集合通信。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="159"/>
        <source>%1&apos;s PCIe link runs at %2, below its capability %3.</source>
        <translation>%1 的 PCIe 链路运行在 %2，低于其能力 %3。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="179"/>
        <source>%1&apos;s PCIe link runs at %2 while the identical %3 reaches %4: it may have trained at a lower speed or width.</source>
        <translation>%1 的 PCIe 链路运行在 %2，而同型号的 %3 达到 %4：它可能以较低的速率或宽度完成了链路训练。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="198"/>
        <source>ACS redirection is enabled on PCIe bridge %1 above %2: peer-to-peer and GPUDirect traffic is sent up to the root complex, or fails.</source>
        <translation>%2 上游的 PCIe 桥 %1 启用了 ACS 重定向：点对点和 GPUDirect 流量被送往根复合体，或直接失败。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="219"/>
        <source>%1 NVIDIA GPUs are on PCI (%2) but the driver does not serve them: %3. Without it there is no CUDA, NCCL or GPUDirect here.</source>
        <translation>PCI 上有 %1 块 NVIDIA GPU（%2），但驱动没有接管它们：%3。没有驱动，这台服务器就没有 CUDA、NCCL 和 GPUDirect。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="228"/>
        <source>The source lists no GPU on this server.</source>
        <translation>数据源中这台服务器没有 GPU。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="229"/>
        <source>No GPU on this server: none on PCI, and %1.</source>
        <translation>这台服务器没有 GPU：PCI 上没有，并且 %1。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="241"/>
        <source>%1 can do RDMA but has no RDMA device, so its RDMA driver is not loaded (%2). NCCL would fall back to TCP sockets over it.</source>
        <translation>%1 支持 RDMA，但没有 RDMA 设备，说明其 RDMA 驱动未加载（%2）。NCCL 在它上面会退回到 TCP 套接字。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="251"/>
        <source>Neither a peer-memory module (nvidia_peermem) nor DMA-BUF (Linux 5.12 or later) is there: no GPU can use GPUDirect RDMA with a NIC, whatever the PCIe path.</source>
        <translation>既没有 peer-memory 模块（nvidia_peermem），也没有 DMA-BUF（Linux 5.12 及以上）：无论 PCIe 路径如何，任何 GPU 都无法与网卡使用 GPUDirect RDMA。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="269"/>
        <source>The source gives each GPU&apos;s NVLinks to its NVSwitches but not the links between the switches: whether %1 and %2 (and %3 pairs in all) are joined over NVLink is not described, and their paths shown are PCIe paths.</source>
        <translation>数据源给出了每块 GPU 到其 NVSwitch 的 NVLink，但没有给出交换芯片之间的链路：%1 与 %2（共 %3 对）是否通过 NVLink 相连未被描述，显示的是它们的 PCIe 路径。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="280"/>
        <source>This NCCL topology lists no NVLink: the GPUs have none, or the file (a vendor&apos;s NCCL_TOPO_FILE) leaves it out. GPU-to-GPU paths shown are PCIe paths.</source>
        <translation>此 NCCL 拓扑未列出 NVLink：要么这些 GPU 没有 NVLink，要么该文件（厂商的 NCCL_TOPO_FILE）省略了它。显示的 GPU 间路径是 PCIe 路径。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="286"/>
        <source>hwloc describes NVLink only when it ran with the NVIDIA driver (its NVML backend), and this source has none: GPU-to-GPU paths shown are PCIe paths, and NVLink is unknown.</source>
        <translation>hwloc 只有在带 NVIDIA 驱动运行（其 NVML 后端）时才描述 NVLink，而此数据源中没有：显示的 GPU 间路径是 PCIe 路径，NVLink 情况未知。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="305"/>
        <source>The source lists no NIC: GPUDirect RDMA and NCCL&apos;s NIC choice cannot be judged.</source>
        <translation>来源中没有网卡：无法判断 GPUDirect RDMA 和 NCCL 的网卡选择。</translation>
    </message>
    <message>
        <location filename="../core/analysis/findings.cpp" line="307"/>
        <source>No NIC is known to be RDMA-capable: NCCL would fall back to sockets.</source>
        <translation>没有已知支持 RDMA 的网卡：NCCL 会退回到套接字传输。</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="38"/>
        <source>path %1</source>
        <translation>路径 %1</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="42"/>
        <source>PXN through %1 over NVLink, which reaches %2 at %3</source>
        <translation>经 NVLink 通过 %1 中转（PXN），%1 到 %2 的路径为 %3</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="46"/>
        <source> (%1 on %2&apos;s own CPU, reached over NVLink-C2C; NCCL_NET_GDR_C2C=1)</source>
        <translation>（%1 位于 %2 自己的 CPU 上，经 NVLink-C2C 到达；NCCL_NET_GDR_C2C=1）</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="57"/>
        <source>%1 has no RDMA device (%2)</source>
        <translation>%1 没有 RDMA 设备（%2）</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="60"/>
        <location filename="../core/analysis/host_analysis.cpp" line="63"/>
        <source>NCCL found no GPUDirect support on %1 (gdr=0)</source>
        <translation>NCCL 在 %1 上未发现 GPUDirect 支持（gdr=0）</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="66"/>
        <source>%1 is farther than PXB, NCCL&apos;s default NCCL_NET_GDR_LEVEL, and no NVLink peer nearer to %2 relays for it (PXN)</source>
        <translation>%1 远于 NCCL 默认的 NCCL_NET_GDR_LEVEL（PXB），且没有离 %2 更近的 NVLink 对等 GPU 为它中转（PXN）</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="79"/>
        <source>%1 reaches %2 at %3 through the other CPU: NCCL would relay through an NVLink peer (PXN), but this source does not describe NVLink, so it is unknown here</source>
        <translation>%1 经另一颗 CPU 以 %3 到达 %2：NCCL 会经由 NVLink 对等 GPU 中转（PXN），但此来源未描述 NVLink，因此这里未知</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="88"/>
        <source>%1 allows it, but no peer-memory module (nvidia_peermem) is loaded: only DMA-BUF (open GPU driver, NCCL &gt;= 2.19) could give GPUDirect</source>
        <translation>%1 允许，但未加载 peer-memory 模块（nvidia_peermem）：只有 DMA-BUF（开源 GPU 驱动，NCCL &gt;= 2.19）能提供 GPUDirect</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="94"/>
        <source>%1 allows it, but %2</source>
        <translation>%1 允许，但 %2</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="98"/>
        <source>%1 is within NCCL&apos;s GPUDirect level and %2</source>
        <translation>%1 在 NCCL 的 GPUDirect 级别之内，且 %2</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="149"/>
        <source>through %1 over NVLink (PXN): %2</source>
        <translation>经 NVLink 通过 %1 中转（PXN）：%2</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="71"/>
        <source>no peer-memory module (nvidia_peermem) is loaded and the kernel is older than 5.12, so DMA-BUF cannot stand in</source>
        <translation>未加载 peer-memory 模块（nvidia_peermem），且内核早于 5.12，DMA-BUF 也无法替代</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="85"/>
        <source>the source does not give the path between them</source>
        <translation>来源没有给出它们之间的路径</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="107"/>
        <source>%1 on package %2, %3 on package %4</source>
        <translation>%1 在插槽 %2，%3 在插槽 %4</translation>
    </message>
    <message>
        <location filename="../core/analysis/host_analysis.cpp" line="115"/>
        <source>packages unknown; judged from path %1</source>
        <translation>插槽未知；根据路径 %1 判断</translation>
    </message>
    <message>
        <location filename="../core/runs/counter_watch.cpp" line="61"/>
        <source>went back from %1 to %2 (cleared, wrapped or a driver reload)</source>
        <translation>从 %1 回退到 %2（被清零、回绕或驱动重新加载）</translation>
    </message>
    <message>
        <location filename="../core/runs/counter_watch.cpp" line="66"/>
        <source>saturated: a lower bound</source>
        <translation>已饱和：仅为下限</translation>
    </message>
    <message>
        <location filename="../core/runs/counter_watch.cpp" line="84"/>
        <source>%1: %2 rose by %3 during the run%4</source>
        <translation>%1：运行期间 %2 增加了 %3%4</translation>
    </message>
    <message>
        <location filename="../core/runs/counter_watch.cpp" line="91"/>
        <source>%1: %2 rose by %3 during the run: the network pushed back (PFC pause, ECN/CNP)</source>
        <translation>%1：运行期间 %2 增加了 %3：网络在施加反压（PFC 暂停、ECN/CNP）</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="31"/>
        <source>NET device %1</source>
        <translation>NET 设备 %1</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="177"/>
        <source>ACS redirects peer-to-peer traffic up to the root complex at %1; disable ACS on the bridges between the GPU and the NIC</source>
        <translation>ACS 将点对点流量重定向到根复合体（%1）；请在 GPU 与 NIC 之间的桥上关闭 ACS</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="182"/>
        <source>its source shows no cause: check that nvidia-peermem (or dma-buf) is loaded, ACS is off on the path, and NCCL_NET_GDR_LEVEL</source>
        <translation>数据源未显示原因：请检查 nvidia-peermem（或 dma-buf）是否已加载、路径上的 ACS 是否关闭，以及 NCCL_NET_GDR_LEVEL</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="203"/>
        <source>%1: NCCL sent over TCP sockets (NET/Socket), not RDMA: it found no usable RDMA device, or NCCL_IB_DISABLE / NCCL_NET / NCCL_IB_HCA kept it from one</source>
        <translation>%1：NCCL 走的是 TCP 套接字（NET/Socket），不是 RDMA：它没有找到可用的 RDMA 设备，或被 NCCL_IB_DISABLE / NCCL_NET / NCCL_IB_HCA 挡住了</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="207"/>
        <source>%1: NCCL sent over TCP sockets (NET/Socket), not RDMA, for ranks %2: it found no usable RDMA device, or NCCL_IB_DISABLE / NCCL_NET / NCCL_IB_HCA kept it from one</source>
        <translation>%1：NCCL 在 rank %2 上走的是 TCP 套接字（NET/Socket），不是 RDMA：它没有找到可用的 RDMA 设备，或被 NCCL_IB_DISABLE / NCCL_NET / NCCL_IB_HCA 挡住了</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="262"/>
        <source>%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections), though the topology allows it (%5): %6%7</source>
        <translation>%1 访问 %2 时未使用 GPUDirect RDMA（%4 个网络连接中有 %3 个），而拓扑允许（%5）：%6%7</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="270"/>
        <source>%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections), as the topology predicts: %5%6</source>
        <translation>%1 到 %2 没有使用 GPUDirect RDMA（%4 条网络连接中的 %3 条），与拓扑的预测一致：%5%6</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="279"/>
        <source>%1 reached %2 without GPUDirect RDMA (%3 of %4 network connections)%5</source>
        <translation>%1 到 %2 没有使用 GPUDirect RDMA（%4 条网络连接中的 %3 条）%5</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_transport.cpp" line="245"/>
        <source>%1 used %2 (%3), not its nearest NIC %4: check NCCL_IB_HCA</source>
        <translation>%1 用的是 %2（%3），不是最近的网卡 %4：请检查 NCCL_IB_HCA</translation>
    </message>
    <message>
        <location filename="../core/runs/straggler.cpp" line="139"/>
        <source>%1: %2 GB/s, %3</source>
        <translation>%1：%2 GB/s，%3</translation>
    </message>
    <message>
        <location filename="../core/runs/run_findings.cpp" line="28"/>
        <source>The record of &quot;%1&quot; ends before the run did: what follows is only what arrived before it was cut</source>
        <translation>“%1”的记录在运行结束前就中断了：以下只是中断前收到的内容</translation>
    </message>
    <message>
        <location filename="../core/runs/run_findings.cpp" line="34"/>
        <source>&quot;%1&quot; failed: %2</source>
        <translation>“%1”失败：%2</translation>
    </message>
    <message>
        <location filename="../core/runs/run_findings.cpp" line="16"/>
        <source>nccl-tests counted %1 wrong results in &quot;%2&quot;: data arrived corrupted (a faulty GPU, NVLink, NIC or cable)</source>
        <translation>nccl-tests 在“%2”中统计到 %1 个错误结果：数据到达时已损坏（GPU、NVLink、网卡或线缆故障）</translation>
    </message>
    <message>
        <location filename="../core/runs/saved_load_run.cpp" line="101"/>
        <source>Inference load run %1: every one of its %2 requests failed; the commonest reason: %3.</source>
        <translation>推理负载运行 %1：全部 %2 个请求都失败了；最常见的原因：%3。</translation>
    </message>
    <message>
        <location filename="../core/runs/saved_load_run.cpp" line="106"/>
        <source>Inference load run %1: %2 of its %3 requests failed; the commonest reason: %4.</source>
        <translation>推理负载运行 %1：%3 个请求中有 %2 个失败；最常见的原因：%4。</translation>
    </message>
    <message>
        <location filename="../core/runs/saved_load_run.cpp" line="114"/>
        <source>Inference load run %1 was not read whole: %2.</source>
        <translation>推理负载运行 %1 未能完整读取：%2。</translation>
    </message>
    <message>
        <location filename="../core/analysis/finding.cpp" line="22"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../core/analysis/finding.cpp" line="24"/>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../core/analysis/finding.cpp" line="26"/>
        <source>info</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="139"/>
        <source> of process group %1</source>
        <translation>（进程组 %1）</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="146"/>
        <source>%1 (SeqNum %2%3) timed out on ranks %4 after %5 ms: a rank that never joined it, or a link that stalled, holds the others; the ranks that did not time out are the ones to look at</source>
        <translation>%1（SeqNum %2%3）在 rank %4 上于 %5 ms 后超时：有 rank 从未加入该集合通信，或某条链路停滞，拖住了其他 rank；应检查没有超时的那些 rank</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="157"/>
        <source>the log names no peer</source>
        <translation>日志未指明对端</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="158"/>
        <source>NCCL said %1 closed the connection</source>
        <translation>NCCL 报告 %1 关闭了连接</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="164"/>
        <source>%1 (SeqNum %2%3) failed on ranks %4: %5; %6</source>
        <translation>%1（SeqNum %2%3）在 rank %4 上失败：%5；%6</translation>
    </message>
    <message>
        <location filename="../core/runs/torch_watchdog.cpp" line="188"/>
        <source>ranks %1 of process group %2 had completed fewer collectives than the others (the others: up to %3): they were behind before the timeout</source>
        <translation>进程组 %2 的 rank %1 完成的集合通信少于其他 rank（其他 rank 已完成到 %3）：它们在超时前就已落后</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_ras.cpp" line="413"/>
        <source>the job</source>
        <translation>该作业</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_ras.cpp" line="414"/>
        <source>communicator %1</source>
        <translation>通信器 %1</translation>
    </message>
    <message>
        <location filename="../core/runs/nccl_ras.cpp" line="416"/>
        <source>NCCL RAS: %1 %2: %3</source>
        <translation>NCCL RAS：%1 %2：%3</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="50"/>
        <source>%1 is not registered with its NVLink domain (%2; from %3): its peers cannot reach it over NVLink, and a job that spans it runs slow or hangs. Check the fabric manager and the NVLink switch trays.</source>
        <translation>%1 未注册到其 NVLink 域（%2；来自 %3）：其对端无法经 NVLink 访问它，跨越它的作业会变慢或挂起。请检查 Fabric Manager 和 NVLink 交换托盘。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="72"/>
        <source>%1&apos;s NVLink fabric health is %2 (%3; from %4), although its links may all show their full speed: NVLink traffic to its peers is degraded or lost.</source>
        <translation>%1 的 NVLink fabric 健康状态为 %2（%3；来自 %4），尽管其链路可能都显示满速：与对端之间的 NVLink 流量已降级或丢失。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="116"/>
        <source>%1&apos;s GPUs are in %2 NVLink domains: %3. A job on this server cannot keep its tensor-parallel group on NVLink.</source>
        <translation>%1 的 GPU 分属 %2 个 NVLink 域：%3。该服务器上的作业无法把张量并行组保持在 NVLink 上。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="136"/>
        <source>%1 is outside every NVLink domain (%2; from %3) while its peers are in %4: it fell out of its domain.</source>
        <translation>%1 不在任何 NVLink 域中（%2；来自 %3），而其对端在 %4 中：它已脱离所在的域。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="151"/>
        <source>%1 (%2) is one NVLink rack in the design, but its servers registered with %3 domains: %4.</source>
        <translation>%1（%2）在设计中是一个 NVLink 机柜，但其服务器注册到了 %3 个域：%4。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="177"/>
        <source>%1 reports %2 (from %3): memory shared over NVLink between these servers fails.</source>
        <translation>%1 报告 %2（来自 %3）：这些服务器之间经 NVLink 共享内存会失败。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="228"/>
        <source>%1 has %2 of its %3 NVLinks not active (link %4): its NVLink bandwidth is cut.</source>
        <translation>%1 的 %3 条 NVLink 中有 %2 条未激活（链路 %4）：其 NVLink 带宽被削减。</translation>
    </message>
    <message>
        <location filename="../core/analysis/nvlink_findings.cpp" line="270"/>
        <source>%1 counted NVLink errors during the sample (%2): the link retrains or replays, and its traffic slows.</source>
        <translation>%1 在采样期间计入了 NVLink 错误（%2）：链路在重新训练或重放，流量变慢。</translation>
    </message>
    <message>
        <location filename="../core/analysis/slurm_topology_check.cpp" line="35"/>
        <source>Block %1 spans %2 NVLink domains: %3. A job Slurm places in it cannot keep its traffic on NVLink.</source>
        <translation>块 %1 跨越 %2 个 NVLink 域：%3。Slurm 放入其中的作业无法把流量保持在 NVLink 上。</translation>
    </message>
    <message>
        <location filename="../core/analysis/slurm_topology_check.cpp" line="56"/>
        <source>%1 of NVLink domain %2 is in no block: Slurm&apos;s topology/block will not place jobs on it with its domain.</source>
        <translation>NVLink 域 %2 中的 %1 不在任何块中：Slurm 的 topology/block 不会把它与所在域一起调度。</translation>
    </message>
    <message>
        <location filename="../core/analysis/slurm_topology_check.cpp" line="68"/>
        <source>%1 is in block %2, but its NVLink domain %3 is block %4&apos;s (%5 of its servers).</source>
        <translation>%1 在块 %2 中，但其 NVLink 域 %3 属于块 %4（该域 %5 台服务器在其中）。</translation>
    </message>
    <message>
        <location filename="../core/analysis/slurm_topology_check.cpp" line="124"/>
        <source>Switch %1 matches leaf %2 of the fabric, but %3: Slurm will place jobs by cabling that is not there.</source>
        <translation>交换机 %1 对应网络中的叶交换机 %2，但 %3：Slurm 会按并不存在的布线来调度作业。</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="34"/>
        <source>The server answered</source>
        <translation>服务器已应答</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="35"/>
        <source>GPUs: count and model</source>
        <translation>GPU：数量与型号</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="36"/>
        <source>RDMA NICs: count and model</source>
        <translation>RDMA 网卡：数量与型号</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="37"/>
        <source>PCIe links at their capability and their peers&apos;</source>
        <translation>PCIe 链路达到自身能力并与同类一致</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="39"/>
        <source>GPU and NIC placement (socket, PCIe switch)</source>
        <translation>GPU 与网卡的位置（CPU 插槽、PCIe 交换机）</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="41"/>
        <source>GPUDirect RDMA and its prerequisites</source>
        <translation>GPUDirect RDMA 及其前提条件</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="43"/>
        <source>ACS and IOMMU out of the peer-to-peer path</source>
        <translation>ACS 与 IOMMU 不在点对点路径上</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="45"/>
        <source>RDMA ports: state, rate, link layer, MTU, GID</source>
        <translation>RDMA 端口：状态、速率、链路层、MTU、GID</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="47"/>
        <source>Interface MTU</source>
        <translation>网络接口 MTU</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="48"/>
        <source>RoCE QoS: PFC, ECN, trust</source>
        <translation>RoCE QoS：PFC、ECN、信任模式</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="49"/>
        <source>Cabling seen by LLDP and the fabric</source>
        <translation>LLDP 与网络拓扑所见的布线</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="50"/>
        <source>NVLink links</source>
        <translation>NVLink 链路</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="51"/>
        <source>Error counters while sampled</source>
        <translation>采样期间的错误计数器</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="52"/>
        <source>Driver, CUDA, NCCL, kernel, OFED and firmware versions</source>
        <translation>驱动、CUDA、NCCL、内核、OFED 与固件版本</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="54"/>
        <source>The server as its baseline saw it</source>
        <translation>服务器与其基线一致</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="56"/>
        <source>NCCL bandwidth: each server alone and in pairs</source>
        <translation>NCCL 带宽：每台服务器单独及两两成对</translation>
    </message>
    <message>
        <location filename="../core/acceptance/check_result.cpp" line="58"/>
        <source>RDMA bandwidth between servers (ib_write_bw)</source>
        <translation>服务器之间的 RDMA 带宽（ib_write_bw）</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="34"/>
        <source>its %1 has %2</source>
        <translation>其 %1 的地址为 %2</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="43"/>
        <source>reached over SSH at %1</source>
        <translation>经 SSH 在 %1 连接</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="45"/>
        <source>its name</source>
        <translation>其名称</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="48"/>
        <source>its SSH name</source>
        <translation>其 SSH 名称</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="70"/>
        <source>NVML index %1</source>
        <translation>NVML 编号 %1</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="78"/>
        <source>CUDA device %1, PCI order assumed</source>
        <translation>CUDA 设备 %1（假定按 PCI 顺序）</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="88"/>
        <source>missing: RAS has no data from it</source>
        <translation>缺失：RAS 没有它的数据</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="130"/>
        <source>%1 is the only one of the %2 servers under leaf %3 where: %4</source>
        <translation>在叶交换机 %3 下的 %2 台服务器中，只有 %1 存在：%4</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="146"/>
        <source>%1 is not among the servers shown: connect to it to place these ranks on its GPUs and the fabric</source>
        <translation>%1 不在所显示的服务器中：连接它，才能把这些 rank 定位到其 GPU 和网络上</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="165"/>
        <source>the process is gone or cut off: its own log, and %1&apos;s kernel log (a GPU Xid, an OOM kill) say which</source>
        <translation>进程已退出或失联：查看其自身日志及 %1 的内核日志（GPU Xid、OOM 终止）可知原因</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="170"/>
        <source>these ranks wait in their next collective for the others, which are behind: VERBOSE STATUS (--verbose) names every rank and where it is</source>
        <translation>这些 rank 在下一个集合通信中等待其他落后的 rank：VERBOSE STATUS（--verbose）会列出每个 rank 及其位置</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="174"/>
        <source>a stack dump of process %1 on %2 (py-spy dump --pid %3) shows what it waits on before the next collective</source>
        <translation>%2 上进程 %1 的调用栈（py-spy dump --pid %3）可显示它在下一个集合通信前等待什么</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="190"/>
        <source>, GPUs </source>
        <translation>，GPU </translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="255"/>
        <source>process %1</source>
        <translation>进程 %1</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="256"/>
        <source>rank %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="257"/>
        <source>ranks %1</source>
        <translation>rank %1</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="260"/>
        <source>%1 (not among the servers shown)</source>
        <translation>%1（不在所显示的服务器中）</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="264"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="267"/>
        <source>, under leaf %1</source>
        <translation>，位于叶交换机 %1 下</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="269"/>
        <source>, under %1 leaves</source>
        <translation>，位于 %1 台叶交换机下</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="270"/>
        <source>%1 on %2: %3</source>
        <translation>%1（%2）：%3</translation>
    </message>
    <message>
        <location filename="../core/job/ras_verdict.cpp" line="272"/>
        <source> (communicator %1)</source>
        <translation>（通信器 %1）</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::ConnectDialog</name>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="24"/>
        <source>Connect to servers</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="28"/>
        <source>gpu[001-064],login</source>
        <translation>gpu[001-064],login</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="29"/>
        <source>~/.ssh/config</source>
        <translation>~/.ssh/config</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="30"/>
        <source>~/.ssh/known_hosts</source>
        <translation>~/.ssh/known_hosts</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="31"/>
        <source>as the SSH config says (user@bastion:22)</source>
        <translation>按 SSH 配置（user@bastion:22）</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="40"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="42"/>
        <source>&amp;Hosts:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="43"/>
        <source>SSH &amp;config:</source>
        <translation>SSH 配置(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="44"/>
        <source>&amp;Known hosts:</source>
        <translation>已知主机(&amp;K)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="45"/>
        <source>&amp;Jump host:</source>
        <translation>跳板机(&amp;J)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="46"/>
        <source>At &amp;once:</source>
        <translation>同时连接(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="47"/>
        <source>&amp;Timeout per stage:</source>
        <translation>每阶段超时(&amp;T)：</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="49"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="65"/>
        <source>The host list cannot be read: %1</source>
        <translation>无法读取主机列表：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="65"/>
        <source>it is empty</source>
        <translation>列表为空</translation>
    </message>
    <message>
        <location filename="../app/gui/connect_dialog.cpp" line="71"/>
        <source>The jump host is not [user@]host[:port]: %1</source>
        <translation>跳板机格式不是 [user@]host[:port]：%1</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::ExportDialog</name>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="50"/>
        <location filename="../app/gui/export_dialog.cpp" line="88"/>
        <source>Export diagram</source>
        <translation>导出拓扑图</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="52"/>
        <source>SVG (scales without loss)</source>
        <translation>SVG（无损缩放）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="53"/>
        <source>PNG (an image)</source>
        <translation>PNG（图片）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="54"/>
        <source>PDF (pages to print)</source>
        <translation>PDF（用于打印的页面）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="55"/>
        <source>Graphviz DOT (the graph, for dot to lay out)</source>
        <translation>Graphviz DOT（图结构，由 dot 布局）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="59"/>
        <source>the one the drawing fills best</source>
        <translation>图面最能填满的方向</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="60"/>
        <location filename="../app/gui/export_dialog.cpp" line="268"/>
        <source>landscape</source>
        <translation>横向</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="61"/>
        <location filename="../app/gui/export_dialog.cpp" line="268"/>
        <source>portrait</source>
        <translation>纵向</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="64"/>
        <source> DPI</source>
        <translation> DPI</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="65"/>
        <source>as in the window</source>
        <translation>与窗口中相同</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="66"/>
        <source>every server closed, as a card</source>
        <translation>所有服务器收起为卡片</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="67"/>
        <source>every server open</source>
        <translation>所有服务器展开</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="68"/>
        <source>every server (or a hostlist: node[01-08])</source>
        <translation>所有服务器（或主机列表：node[01-08]）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="85"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="89"/>
        <source>SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz (*.dot)</source>
        <translation>SVG (*.svg);;PNG (*.png);;PDF (*.pdf);;Graphviz (*.dot)</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="96"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="97"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="98"/>
        <source>Page (PDF)</source>
        <translation>纸张（PDF）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="99"/>
        <source>Orientation (PDF)</source>
        <translation>方向（PDF）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="100"/>
        <source>Resolution (PNG)</source>
        <translation>分辨率（PNG）</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="101"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="102"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="103"/>
        <source>Only these servers</source>
        <translation>仅这些服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="104"/>
        <source>Highlights</source>
        <translation>高亮</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="118"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="179"/>
        <source>Only these servers: %1</source>
        <translation>仅这些服务器：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="189"/>
        <source>No server is called %1: there would be nothing to draw.</source>
        <translation>没有名为 %1 的服务器：没有可绘制的内容。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="218"/>
        <source>Choose the file to write.</source>
        <translation>请选择要写入的文件。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="220"/>
        <source>The folder %1 does not exist.</source>
        <translation>文件夹 %1 不存在。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="225"/>
        <source>%1 × %2 pixels is too large an image: choose a lower resolution, or SVG or PDF.</source>
        <translation>%1 × %2 像素的图片过大：请选择更低的分辨率，或改用 SVG 或 PDF。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="260"/>
        <source>%1 × %2 pt; scales without loss.</source>
        <translation>%1 × %2 pt；可无损缩放。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="264"/>
        <source>%1 × %2 pixels at %3 DPI.</source>
        <translation>%1 × %2 像素，%3 DPI。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="271"/>
        <source>One %1 page; the smallest text prints at %2 pt.</source>
        <translation>一页 %1；最小文字打印为 %2 pt。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="274"/>
        <source>On one page the text would print under 6 pt, so: a map of the pages (shown here), then %1 %2 pages to lay side by side, the smallest text at %3 pt.</source>
        <translation>放在一页上文字将小于 6 pt，因此：先是一页分页索引图（即此处所示），然后是 %1 页 %2，可拼接排列，最小文字为 %3 pt。</translation>
    </message>
    <message>
        <location filename="../app/gui/export_dialog.cpp" line="283"/>
        <source>The graph for Graphviz, which lays it out itself (dot -Tsvg); the preview shows rackscope&apos;s own layout.</source>
        <translation>供 Graphviz 使用的图结构，由其自行布局（dot -Tsvg）；预览显示的是 rackscope 自己的布局。</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::FindingsPanel</name>
    <message>
        <location filename="../app/gui/findings_panel.cpp" line="49"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location filename="../app/gui/findings_panel.cpp" line="49"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../app/gui/findings_panel.cpp" line="49"/>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../app/gui/findings_panel.cpp" line="49"/>
        <source>Message</source>
        <translation>消息</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::InferencePanel</name>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="24"/>
        <source>%1 s: %2 sent, %3 done, %4 failed, %5 in flight</source>
        <translation>%1 秒：已发送 %2，完成 %3，失败 %4，进行中 %5</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="41"/>
        <source>Capacity at %1: %2</source>
        <translation>%1 下的容量：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="47"/>
        <source>inference load run finished</source>
        <translation>推理压测完成</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="47"/>
        <source>inference load run ended: %1</source>
        <translation>推理压测结束：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="57"/>
        <location filename="../app/gui/inference_panel.cpp" line="162"/>
        <location filename="../app/gui/inference_panel.cpp" line="217"/>
        <location filename="../app/gui/inference_panel.cpp" line="228"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="57"/>
        <source>An inference load run is already running.</source>
        <translation>已有推理压测在运行。</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="62"/>
        <source>inference load run against %1 (%2) from %3</source>
        <translation>对 %1（%2）的推理压测，从 %3 发起</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="64"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="75"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="75"/>
        <source>requests in flight</source>
        <translation>个并发请求</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="77"/>
        <source>the SLO broke at every value tried</source>
        <translation>所有尝试的值都不满足 SLO</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="77"/>
        <source>no step ran</source>
        <translation>没有运行任何一步</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="79"/>
        <source>at least %1 %2 (the SLO held at every value tried)</source>
        <translation>至少 %1 %2（所有尝试的值都满足 SLO）</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="81"/>
        <source>about %1 %2 (held at %1, broke at %3; held again when repeated)</source>
        <translation>约 %1 %2（%1 时满足，%3 时不满足；重复运行仍满足）</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="82"/>
        <source>about %1 %2 (held at %1, broke at %3; not repeated)</source>
        <translation>约 %1 %2（%1 时满足，%3 时不满足；未重复运行）</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="89"/>
        <source>; no server metrics: %1</source>
        <translation>；无服务器指标：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="90"/>
        <source>no scrape in the measured phase</source>
        <translation>测量阶段没有抓取</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="95"/>
        <source>; server KV-cache peak %1 %, mean %2 %; queue peak %3</source>
        <translation>；服务器 KV 缓存峰值 %1 %，平均 %2 %；队列峰值 %3</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/inference_panel.cpp" line="110"/>
        <source>; %n GPU(s) of the workers at %1 % mean, %2 % peak utilisation</source>
        <translation>
            <numerusform>；工作节点的 %n 块 GPU 平均利用率 %1 %，峰值 %2 %</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="115"/>
        <source>; %1&apos;s GPUs not read: %2</source>
        <translation>；%1 的 GPU 未能读取：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="124"/>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="127"/>
        <source>%1 ok, %2 failed, %3 req/s, TTFT p50 %4, TPOT p50 %5</source>
        <translation>%1 个成功，%2 个失败，%3 请求/秒，TTFT p50 %4，TPOT p50 %5</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="133"/>
        <location filename="../app/gui/inference_panel.cpp" line="199"/>
        <source>; failed: %1</source>
        <translation>；失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="139"/>
        <source>; saved in %1</source>
        <translation>；已保存到 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="141"/>
        <source>inference load step %1 ended: %2 requests ok, %3 failed</source>
        <translation>推理压测第 %1 步结束：成功 %2 个请求，失败 %3 个</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="162"/>
        <source>Cannot open the inference load run: %1</source>
        <translation>无法打开推理负载运行：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="193"/>
        <source>Saved run %1: %2 ok, %3 failed, %4 req/s</source>
        <translation>已保存的运行 %1：%2 成功，%3 失败，%4 请求/秒</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="202"/>
        <source>opened the inference load run %1</source>
        <translation>已打开推理负载运行 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="217"/>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="220"/>
        <source>wrote %1 requests to %2</source>
        <translation>已将 %1 个请求写入 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="225"/>
        <source>no inference load run was saved or opened yet</source>
        <translation>还没有保存或打开过推理负载运行</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="228"/>
        <source>Could not write the report: %1</source>
        <translation>无法写入报告：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/inference_panel.cpp" line="231"/>
        <source>wrote the report of %1 to %2</source>
        <translation>已将 %1 的报告写入 %2</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::InspectorPanel</name>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="45"/>
        <source>Fact</source>
        <translation>属性</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="45"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="60"/>
        <source>item</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="62"/>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="77"/>
        <location filename="../app/gui/inspector_panel.cpp" line="80"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="77"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="77"/>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="78"/>
        <source>path to %1</source>
        <translation>到 %1 的路径</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="78"/>
        <source>path from %1</source>
        <translation>来自 %1 的路径</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="79"/>
        <source>%1; GPUDirect RDMA %2%3</source>
        <translation>%1；GPUDirect RDMA：%2%3</translation>
    </message>
    <message>
        <location filename="../app/gui/inspector_panel.cpp" line="81"/>
        <source>%1, NCCL: %2</source>
        <translation>%1，NCCL：%2</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::JobWatchDialog</name>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="15"/>
        <source>Watch a running NCCL job</source>
        <translation>监视运行中的 NCCL 作业</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="18"/>
        <source>NCCL 2.24 and later serve the job&apos;s state on port 28028 of every node of the job (RAS). rackscope asks one node through its SSH connection and marks the ranks that are missing, dead or behind on the picture.</source>
        <translation>NCCL 2.24 及更高版本在作业每个节点的 28028 端口提供作业状态（RAS）。rackscope 通过 SSH 连接询问其中一个节点，并在图中标出缺失、失效或落后的 rank。</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="28"/>
        <source>Node of the job:</source>
        <translation>作业节点：</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="32"/>
        <source>RAS port:</source>
        <translation>RAS 端口：</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="36"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="37"/>
        <source>Ask every:</source>
        <translation>询问间隔：</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="38"/>
        <source>List every rank (VERBOSE STATUS)</source>
        <translation>列出所有 rank（VERBOSE STATUS）</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_dialog.cpp" line="41"/>
        <source>Watch</source>
        <translation>监视</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::JobWatchPanel</name>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="18"/>
        <source>%1  no answer: %2</source>
        <translation>%1  无应答：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="20"/>
        <source>%1  no rank missing, dead or behind</source>
        <translation>%1  没有缺失、失效或落后的 rank</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/job_watch_panel.cpp" line="25"/>
        <source>%1  %n group(s) of ranks named, %2 missing or dead</source>
        <translation>
            <numerusform>%1  指出 %n 组 rank，其中 %2 组缺失或失效</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="61"/>
        <source>Stop watching</source>
        <translation>停止监视</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="63"/>
        <source>No job watched: Run → Watch a running NCCL job…</source>
        <translation>未监视作业：运行 → 监视运行中的 NCCL 作业…</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="64"/>
        <source>Watching the NCCL job at %1</source>
        <translation>正在监视 %1 上的 NCCL 作业</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="65"/>
        <source>Stopped watching the NCCL job at %1</source>
        <translation>已停止监视 %1 上的 NCCL 作业</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="107"/>
        <source>No answer: %1</source>
        <translation>无应答：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="112"/>
        <source>NCCL %1, %2 report in %3 s</source>
        <translation>NCCL %1，%2 报告，用时 %3 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="113"/>
        <source>(version not given)</source>
        <translation>（未给出版本）</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="121"/>
        <source>No rank is missing, dead or behind</source>
        <translation>没有缺失、失效或落后的 rank</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="131"/>
        <source>Next: %1</source>
        <translation>下一步：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/job_watch_panel.cpp" line="137"/>
        <source>%1 is not among the servers shown</source>
        <translation>%1 不在所显示的服务器中</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::LoadChart</name>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="77"/>
        <source>No inference load run yet.</source>
        <translation>还没有推理压测。</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="78"/>
        <source>Over time</source>
        <translation>随时间</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="78"/>
        <source>TTFT histogram</source>
        <translation>TTFT 分布</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="78"/>
        <source>Sweep</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="78"/>
        <source>Compare</source>
        <translation>对比</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="81"/>
        <source>TTFT p50</source>
        <translation>TTFT p50</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="81"/>
        <source>TTFT p99</source>
        <translation>TTFT p99</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="81"/>
        <source>TPOT p50</source>
        <translation>TPOT p50</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="81"/>
        <source>TPOT p99</source>
        <translation>TPOT p99</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="84"/>
        <location filename="../app/gui/load_chart.cpp" line="89"/>
        <location filename="../app/gui/load_chart.cpp" line="95"/>
        <location filename="../app/gui/load_chart.cpp" line="98"/>
        <source>time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="85"/>
        <location filename="../app/gui/load_chart.cpp" line="106"/>
        <source>latency (ms)</source>
        <translation>延迟（毫秒）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="86"/>
        <source>requests/s</source>
        <translation>请求/秒</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="87"/>
        <source>failures/s</source>
        <translation>失败/秒</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="88"/>
        <source>in flight</source>
        <translation>进行中</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="90"/>
        <source>per second</source>
        <translation>每秒</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="91"/>
        <source>requests in flight</source>
        <translation>进行中的请求</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="92"/>
        <source>server KV-cache use (%)</source>
        <translation>服务器 KV 缓存占用 (%)</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="93"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="94"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="96"/>
        <source>KV-cache use (%)</source>
        <translation>KV 缓存占用 (%)</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="97"/>
        <source>server&apos;s requests</source>
        <translation>服务器上的请求</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="99"/>
        <source>GPU utilisation (%)</source>
        <translation>GPU 利用率 (%)</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="100"/>
        <source>TTFT</source>
        <translation>TTFT</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="101"/>
        <source>TTFT (ms)</source>
        <translation>TTFT（毫秒）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="102"/>
        <source>requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="103"/>
        <source>TTFT tail</source>
        <translation>TTFT 尾部</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="104"/>
        <source>TPOT tail</source>
        <translation>TPOT 尾部</translation>
    </message>
    <message>
        <location filename="../app/gui/load_chart.cpp" line="105"/>
        <source>throughput (requests/s)</source>
        <translation>吞吐（请求/秒）</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::LoadRunDialog</name>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="30"/>
        <source>Do not check the server&apos;s certificate</source>
        <translation>不校验服务器证书</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="34"/>
        <source>Inference load run</source>
        <translation>推理压测</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="40"/>
        <source>Chat completions</source>
        <translation>聊天补全（Chat completions）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="41"/>
        <source>Completions</source>
        <translation>文本补全（Completions）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="44"/>
        <source>no cap</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="46"/>
        <source>as fast as the concurrency allows</source>
        <translation>按并发允许的最快速度</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="53"/>
        <source>No: one run as set above</source>
        <translation>否：按上面的设置运行一次</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="54"/>
        <source>Yes, the highest request rate</source>
        <translation>是，最高请求速率</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="55"/>
        <source>Yes, the most requests in flight</source>
        <translation>是，最多并发请求数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="56"/>
        <source>empty: from this machine</source>
        <translation>留空：从本机发起</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="57"/>
        <source>empty: the endpoint&apos;s /metrics, where it answers; off: none</source>
        <translation>留空：端点的 /metrics（若可访问）；off：不抓取</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="59"/>
        <source>the inference servers, as a hostlist; local: this machine; empty: none</source>
        <translation>推理服务器的主机列表；local：本机；留空：不采样</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="60"/>
        <source>environment variable holding the API key (never saved)</source>
        <translation>存放 API 密钥的环境变量（从不保存）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="61"/>
        <source>https: PEM file of the certificates to trust (empty: the system&apos;s)</source>
        <translation>https：要信任的证书（PEM 文件；留空则使用系统证书）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="64"/>
        <source>Endpoint URL</source>
        <translation>端点 URL</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="65"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="66"/>
        <source>API</source>
        <translation>API</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="67"/>
        <source>Concurrency</source>
        <translation>并发数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="68"/>
        <source>Request rate (per s)</source>
        <translation>请求速率（每秒）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="69"/>
        <source>Burstiness (1 = Poisson)</source>
        <translation>突发度（1 = 泊松）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="70"/>
        <source>Requests</source>
        <translation>请求数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="71"/>
        <source>Warm-up requests</source>
        <translation>预热请求数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="72"/>
        <source>Input length (tokens)</source>
        <translation>输入长度（token）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="73"/>
        <source>Output length (tokens)</source>
        <translation>输出长度（token）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="75"/>
        <source>1 (no conversation)</source>
        <translation>1（不是对话）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="76"/>
        <source>Turns per conversation</source>
        <translation>每个对话的轮数</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="78"/>
        <source>a CSV or JSON Lines trace to replay in place of the arrivals and lengths</source>
        <translation>要回放的 CSV 或 JSON Lines 轨迹，代替到达过程和长度</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="79"/>
        <source>Trace file</source>
        <translation>轨迹文件</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="80"/>
        <source>Goodput SLO</source>
        <translation>有效吞吐 SLO</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="81"/>
        <source>Find the capacity at the SLO</source>
        <translation>查找满足 SLO 的容量</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="82"/>
        <source>Load from servers</source>
        <translation>从这些服务器发压</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="83"/>
        <source>Server metrics</source>
        <translation>服务器指标</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="84"/>
        <source>Sample the GPUs of</source>
        <translation>采样以下服务器的 GPU</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="85"/>
        <source>API key variable</source>
        <translation>API 密钥变量</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="87"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="90"/>
        <location filename="../app/gui/load_run_dialog.cpp" line="96"/>
        <source>CA certificate</source>
        <translation>CA 证书</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="90"/>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation>PEM 证书 (*.pem *.crt);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="99"/>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="151"/>
        <source>give N, uniform:LOW-HIGH or normal:MEAN,STDDEV, in tokens from 1 to 10000000</source>
        <translation>请填 N、uniform:LOW-HIGH 或 normal:MEAN,STDDEV，单位为 token，取值 1 到 10000000</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="153"/>
        <source>Input length: %1</source>
        <translation>输入长度：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="156"/>
        <source>Output length: %1</source>
        <translation>输出长度：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="162"/>
        <source>SLO: give METRIC&lt;=Nms, separated by commas, with METRIC one of ttft, tpot, itl, e2el (e.g. ttft&lt;=200ms,tpot&lt;=50ms)</source>
        <translation>SLO：请填 METRIC&lt;=Nms，用逗号分隔，METRIC 为 ttft、tpot、itl、e2el 之一（例如 ttft&lt;=200ms,tpot&lt;=50ms）</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="169"/>
        <source>Finding the capacity needs the SLO it holds, e.g. ttft_p99&lt;=500ms</source>
        <translation>查找容量需要给出要满足的 SLO，例如 ttft_p99&lt;=500ms</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="180"/>
        <source>%1 is not set in this session&apos;s environment</source>
        <translation>本会话的环境中没有设置 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="195"/>
        <source>Trace: %1</source>
        <translation>轨迹：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="208"/>
        <source>CA certificate: cannot read %1</source>
        <translation>CA 证书：无法读取 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="214"/>
        <source>Servers: %1</source>
        <translation>服务器：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/load_run_dialog.cpp" line="220"/>
        <source>GPUs of: %1</source>
        <translation>GPU 采样服务器：%1</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::MainWindow</name>
    <message>
        <location filename="../app/gui/main_window.cpp" line="142"/>
        <source>rackscope %1</source>
        <translation>rackscope %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="30"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="32"/>
        <source>Show this &amp;machine</source>
        <translation>显示本机(&amp;M)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="34"/>
        <source>&amp;Connect to servers…</source>
        <translation>连接服务器(&amp;C)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="36"/>
        <source>&amp;Refresh servers</source>
        <translation>刷新服务器(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="37"/>
        <source>S&amp;top connecting</source>
        <translation>停止连接(&amp;T)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="60"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="150"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="156"/>
        <source>&amp;NCCL load run…</source>
        <translation>NCCL 压测(&amp;N)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="179"/>
        <source>&amp;Stop the run</source>
        <translation>停止运行(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="180"/>
        <source>&amp;Open saved run…</source>
        <translation>打开已保存的运行(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="181"/>
        <source>Open saved run</source>
        <translation>打开已保存的运行</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="182"/>
        <source>Runs (*.rsrun)</source>
        <translation>运行记录 (*.rsrun)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="145"/>
        <source>Open the demo cluster</source>
        <translation>打开演示集群</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="146"/>
        <source>Eight 8-GPU servers under rail leaves and spines, with a few planted faults: every feature at once</source>
        <translation>8 台 8-GPU 服务器，接在轨道叶交换机和脊交换机下，预置了几处故障：一次看到全部功能</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="94"/>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="96"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="102"/>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="105"/>
        <source>Findings</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="108"/>
        <source>Console</source>
        <translation>控制台</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="112"/>
        <source>Inference load</source>
        <translation>推理压测</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="31"/>
        <source>&amp;Open topology or fabric…</source>
        <translation>打开拓扑或网络(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="33"/>
        <source>Open the &amp;demo cluster</source>
        <translation>打开演示集群(&amp;D)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="42"/>
        <source>Open &amp;session…</source>
        <translation>打开会话(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="43"/>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="44"/>
        <source>Sessions (*.rsession);;All files (*)</source>
        <translation>会话 (*.rsession);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="48"/>
        <source>&amp;Save session…</source>
        <translation>保存会话(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="50"/>
        <source>Save session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="50"/>
        <source>Sessions (*.rsession)</source>
        <translation>会话 (*.rsession)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="57"/>
        <source>&amp;Export diagram…</source>
        <translation>导出拓扑图(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="62"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="63"/>
        <source>&amp;Fit</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="64"/>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="66"/>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="69"/>
        <source>Open &amp;all servers</source>
        <translation>展开全部服务器(&amp;A)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="74"/>
        <source>&amp;Close all servers</source>
        <translation>折叠全部服务器(&amp;C)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="89"/>
        <source>Only &amp;GPUs and NICs</source>
        <translation>仅显示 GPU 和网卡(&amp;G)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="90"/>
        <source>Hide &amp;storage</source>
        <translation>隐藏存储设备(&amp;S)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="91"/>
        <source>&amp;Highlights</source>
        <translation>高亮(&amp;H)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="103"/>
        <source>View</source>
        <translation>视图</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="105"/>
        <source>Fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="108"/>
        <source>Find a host, device or PCI address</source>
        <translation>查找主机、设备或 PCI 地址</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="116"/>
        <source>nothing matches &quot;%1&quot;</source>
        <translation>没有与“%1”匹配的项</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="122"/>
        <source>%1 of %2 matches</source>
        <translation>第 %1 个，共 %2 个匹配</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="127"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="130"/>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="142"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="151"/>
        <source>&amp;Check the rack</source>
        <translation>检查机架(&amp;C)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="153"/>
        <source>&amp;Watch a running NCCL job…</source>
        <translation>监视运行中的 NCCL 作业(&amp;W)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="155"/>
        <source>Stop watching the NCCL job</source>
        <translation>停止监视 NCCL 作业</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="157"/>
        <source>&amp;Inference load run…</source>
        <translation>推理压测(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="159"/>
        <source>Stop the inference load run</source>
        <translation>停止推理压测</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="160"/>
        <source>Open saved inference load run…</source>
        <translation>打开已保存的推理负载运行…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="161"/>
        <source>Open saved inference load run</source>
        <translation>打开已保存的推理负载运行</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="166"/>
        <source>Export inference load requests as CSV…</source>
        <translation>将推理负载请求导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="168"/>
        <source>Export requests as CSV</source>
        <translation>将请求导出为 CSV</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="168"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="172"/>
        <source>Export inference load report…</source>
        <translation>导出推理负载报告…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="173"/>
        <source>Export the load run&apos;s report</source>
        <translation>导出负载运行的报告</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="174"/>
        <source>HTML (*.html)</source>
        <translation>HTML (*.html)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="178"/>
        <source>Clear the inference load comparison</source>
        <translation>清空推理负载对比</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="191"/>
        <source>Topologies, fabrics, sessions, runs and NCCL logs (*.xml *.txt *.json *.conf *.fabric *.cluster *.rsession *.rsrun *.log);;All files (*)</source>
        <translation>拓扑、网络、会话、运行记录和 NCCL 日志 (*.xml *.txt *.json *.conf *.fabric *.cluster *.rsession *.rsrun *.log);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="24"/>
        <source>Cannot connect: %1</source>
        <translation>无法连接：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="31"/>
        <source>%1…</source>
        <translation>%1…</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="63"/>
        <source>no answer</source>
        <translation>无应答</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="80"/>
        <source>no server of %1 answered; the view still shows %2</source>
        <translation>%1 中没有服务器应答；视图仍显示 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="82"/>
        <source>No server answered (see the Servers list); still showing %1</source>
        <translation>没有服务器应答（原因见“服务器”列表）；仍显示 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="45"/>
        <source>connecting to %1 servers (%2)</source>
        <translation>正在连接 %1 台服务器（%2）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="47"/>
        <source>waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="94"/>
        <source>the jump host is not [user@]host[:port]: %1</source>
        <translation>跳板机格式不是 [user@]host[:port]：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_runs.cpp" line="53"/>
        <source>Cannot reach the servers: %1</source>
        <translation>无法连接服务器：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_runs.cpp" line="28"/>
        <source>Cannot sample counters: %1</source>
        <translation>无法采样计数器：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="355"/>
        <source>flagged slow by the load runs</source>
        <translation>压测判定为慢节点</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="62"/>
        <source>failed at %1: %2</source>
        <translation>在 %1 阶段失败：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="69"/>
        <source>ok (connection reused)</source>
        <translation>正常（复用连接）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="69"/>
        <source>ok (agent %1)</source>
        <translation>正常（代理：%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_fleet.cpp" line="70"/>
        <source>collected in %1 s</source>
        <translation>采集用时 %1 秒</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="161"/>
        <source>A run is going: choose the language again when it has ended, or it changes the next time rackscope starts.</source>
        <translation>正在运行测试：请在结束后再选择一次语言，否则将在下次启动 rackscope 时切换。</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="257"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="260"/>
        <source>collected through the local agent</source>
        <translation>已通过本地代理采集</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="229"/>
        <source>could not read %1: %2</source>
        <translation>无法读取 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="116"/>
        <source>Rack check</source>
        <translation>机架检查</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="118"/>
        <source>NCCL job</source>
        <translation>NCCL 作业</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="200"/>
        <source>asking this machine&apos;s agent</source>
        <translation>正在询问本机的代理</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="231"/>
        <source>failed at import: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="239"/>
        <source>Could not read:
%1</source>
        <translation>无法读取：
%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="263"/>
        <source>opened %1</source>
        <translation>已打开 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="276"/>
        <source>from %1</source>
        <translation>来自 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="265"/>
        <source>fabric from %1</source>
        <translation>网络来自 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="281"/>
        <source>on the fabric only (%1)</source>
        <translation>仅见于网络拓扑（%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="379"/>
        <source>Could not save the session to %1: %2</source>
        <translation>无法将会话保存到 %1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="382"/>
        <source>saved the session (%1 sources) to %2</source>
        <translation>已保存会话（%1 个来源）到 %2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="255"/>
        <source>the rackscope demo cluster</source>
        <translation>rackscope 演示集群</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_menus.cpp" line="190"/>
        <source>Open topologies and fabric sources</source>
        <translation>打开拓扑和网络来源</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="394"/>
        <source>Choose a name ending in .svg, .png, .pdf or .dot</source>
        <translation>请选择以 .svg、.png、.pdf 或 .dot 结尾的文件名</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="408"/>
        <source>Could not export: %1</source>
        <translation>无法导出：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="411"/>
        <source>exported the diagram to %1</source>
        <translation>已将拓扑图导出到 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="295"/>
        <source>%1 of %2 servers answered</source>
        <translation>%2 台服务器中已有 %1 台应答</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="237"/>
        <location filename="../app/gui/main_window.cpp" line="378"/>
        <location filename="../app/gui/main_window.cpp" line="394"/>
        <location filename="../app/gui/main_window.cpp" line="408"/>
        <location filename="../app/gui/main_window_fleet.cpp" line="24"/>
        <location filename="../app/gui/main_window_runs.cpp" line="28"/>
        <location filename="../app/gui/main_window_runs.cpp" line="53"/>
        <location filename="../app/gui/main_window_job.cpp" line="31"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="110"/>
        <source>Load runs</source>
        <translation>压测</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window.cpp" line="238"/>
        <source>Could not read this machine: %1</source>
        <translation>无法读取本机拓扑：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_check.cpp" line="43"/>
        <source>%1 failed the rack check: %2</source>
        <translation>%1 未通过机架检查：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_check.cpp" line="44"/>
        <source>%1 was warned by the rack check: %2</source>
        <translation>%1 在机架检查中收到警告：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_check.cpp" line="49"/>
        <source>rack check: %1</source>
        <translation>机架检查：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_job.cpp" line="31"/>
        <source>Cannot watch the job: %1</source>
        <translation>无法监视作业：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/main_window_job.cpp" line="46"/>
        <source>watching the NCCL job through RAS at %1, every %2 s</source>
        <translation>通过 %1 的 RAS 监视 NCCL 作业，每 %2 秒一次</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::NcclRunDialog</name>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="56"/>
        <source>Sample NIC counters on every host before and after</source>
        <translation>在每台主机上于运行前后采样网卡计数器</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="57"/>
        <source>Find the slow one: run on small groups and compare</source>
        <translation>找出慢节点：分成小组运行并比较</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="58"/>
        <source>NCCL load run</source>
        <translation>NCCL 压测</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="59"/>
        <source>every pair, in rounds of disjoint pairs</source>
        <translation>所有两两组合，按互不相交的配对分轮</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="60"/>
        <source>bisection: halves, then quarters</source>
        <translation>二分：先分两半，再分四份</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="61"/>
        <source>gpu[001-016]</source>
        <translation>gpu[001-016]</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="62"/>
        <source>on PATH</source>
        <translation>在 PATH 中</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="63"/>
        <source>nccl-tests&apos; build folder on the cluster; where nccl-tests is not installed, the nccl-tests folder beside rackscope-nccl-bench</source>
        <translation>集群上 nccl-tests 的构建目录；未安装 nccl-tests 时，填写 rackscope-nccl-bench 旁边的 nccl-tests 目录</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="65"/>
        <source>this machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="66"/>
        <source>--mca btl_tcp_if_include eth0</source>
        <translation>--mca btl_tcp_if_include eth0</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="67"/>
        <source>NAME=VALUE, one per line: NCCL_IB_HCA=mlx5_0,mlx5_1  NCCL_SOCKET_IFNAME=eth0  NCCL_NET_GDR_LEVEL=PHB  NCCL_ALGO=Ring</source>
        <translation>每行一个 NAME=VALUE：NCCL_IB_HCA=mlx5_0,mlx5_1  NCCL_SOCKET_IFNAME=eth0  NCCL_NET_GDR_LEVEL=PHB  NCCL_ALGO=Ring</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="84"/>
        <source>&amp;Hosts:</source>
        <translation>主机(&amp;H)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="85"/>
        <source>&amp;Operation:</source>
        <translation>操作(&amp;O)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="86"/>
        <source>Sizes from (-b):</source>
        <translation>起始大小 (-b)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="87"/>
        <source>Sizes to (-e):</source>
        <translation>结束大小 (-e)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="88"/>
        <source>Step factor (-f):</source>
        <translation>步进倍数 (-f)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="89"/>
        <source>GPUs per process (-g):</source>
        <translation>每进程 GPU 数 (-g)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="90"/>
        <source>Processes per host:</source>
        <translation>每主机进程数：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="91"/>
        <source>Iterations (-n):</source>
        <translation>迭代次数 (-n)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="92"/>
        <source>Warm-up iterations (-w):</source>
        <translation>预热迭代 (-w)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="93"/>
        <source>Data type (-d):</source>
        <translation>数据类型 (-d)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="94"/>
        <source>Reduction (-o):</source>
        <translation>规约操作 (-o)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="95"/>
        <source>&amp;Environment:</source>
        <translation>环境变量(&amp;E)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="96"/>
        <source>&amp;Launcher:</source>
        <translation>启动器(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="97"/>
        <source>Launcher arguments:</source>
        <translation>启动器参数：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="98"/>
        <source>nccl-tests binaries in:</source>
        <translation>nccl-tests 程序目录：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="99"/>
        <source>Launch from:</source>
        <translation>启动主机：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="102"/>
        <source>Groups:</source>
        <translation>分组：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="103"/>
        <source>Command line:</source>
        <translation>命令行：</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="105"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="126"/>
        <source>hosts: %1</source>
        <translation>主机：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="148"/>
        <source>environment: &apos;%1&apos; is not NAME=VALUE</source>
        <translation>环境变量：“%1”不是 NAME=VALUE</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="159"/>
        <source>finding the slow one needs two hosts or more</source>
        <translation>找出慢节点至少需要两台主机</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="174"/>
        <source>(cannot run: %1)</source>
        <translation>（无法运行：%1）</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="182"/>
        <source>
(and the same for every other group)</source>
        <translation>
（其余每组同样运行）</translation>
    </message>
    <message>
        <location filename="../app/gui/nccl_run_dialog.cpp" line="189"/>
        <source>This run cannot start: %1</source>
        <translation>无法开始运行：%1</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::RackCheckPanel</name>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="35"/>
        <source>pass</source>
        <translation>通过</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="37"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="39"/>
        <source>warn</source>
        <translation>警告</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="41"/>
        <source>fail</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="84"/>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="88"/>
        <source>Check the rack</source>
        <translation>检查机架</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="90"/>
        <source>Every server the window shows, by every check: counts, links, placement, GPUDirect, ports, MTU, QoS, cabling, NVLink, versions, and what differs from the rack&apos;s majority</source>
        <translation>对窗口中的每台服务器逐项检查：数量、链路、位置、GPUDirect、端口、MTU、QoS、布线、NVLink、版本，以及与机架多数不一致之处</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="92"/>
        <source>Verdict</source>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="92"/>
        <source>Subject</source>
        <translation>对象</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="92"/>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="92"/>
        <source>What to do</source>
        <translation>处理建议</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="96"/>
        <source>No check yet: open or connect to servers, then check the rack.</source>
        <translation>尚未检查：请先打开或连接服务器，再检查机架。</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="144"/>
        <source>Nothing to check: open or connect to servers first.</source>
        <translation>没有可检查的内容：请先打开或连接服务器。</translation>
    </message>
    <message>
        <location filename="../app/gui/rack_check_panel.cpp" line="146"/>
        <source>%1 servers: %2 pass, %3 warn, %4 fail, %5 unknown (%6)</source>
        <translation>%1 台服务器：%2 通过，%3 警告，%4 失败，%5 未知（%6）</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::RunChart</name>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="58"/>
        <location filename="../app/gui/run_chart.cpp" line="60"/>
        <source>message size (bytes)</source>
        <translation>消息大小（字节）</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="59"/>
        <source>bus bandwidth (GB/s)</source>
        <translation>总线带宽 (GB/s)</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="61"/>
        <source>time (µs)</source>
        <translation>时间 (µs)</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="63"/>
        <location filename="../app/gui/run_chart.cpp" line="126"/>
        <source>No run yet.</source>
        <translation>尚未运行。</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="102"/>
        <source>%1: %2 GB/s at %3 bytes%4</source>
        <translation>%1：%3 字节时 %2 GB/s%4</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="106"/>
        <source>, %1 % of the line rate</source>
        <translation>，达到线速的 %1 %</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="118"/>
        <source>line rate %1 GB/s</source>
        <translation>线速 %1 GB/s</translation>
    </message>
    <message>
        <location filename="../app/gui/run_chart.cpp" line="125"/>
        <source>Line rate: %1</source>
        <translation>线速：%1</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::RunsPanel</name>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="38"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="38"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="38"/>
        <source>Peak busbw (GB/s)</source>
        <translation>峰值总线带宽 (GB/s)</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="38"/>
        <source>Saved as</source>
        <translation>保存为</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="39"/>
        <source>Severity</source>
        <translation>严重程度</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="39"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="39"/>
        <source>Message</source>
        <translation>信息</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="45"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="45"/>
        <source>Open saved run…</source>
        <translation>打开已保存的运行…</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="45"/>
        <source>Baseline…</source>
        <translation>基线…</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="45"/>
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="46"/>
        <source>Export JSON…</source>
        <translation>导出 JSON…</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="71"/>
        <source>Open saved run</source>
        <translation>打开已保存的运行</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="72"/>
        <location filename="../app/gui/runs_panel.cpp" line="78"/>
        <source>Runs (*.rsrun)</source>
        <translation>运行记录 (*.rsrun)</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="78"/>
        <source>Baseline run</source>
        <translation>基线运行</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="137"/>
        <source>starting</source>
        <translation>正在启动</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="151"/>
        <location filename="../app/gui/runs_panel.cpp" line="206"/>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="152"/>
        <source>exit status %1</source>
        <translation>退出状态 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="158"/>
        <source>run ended: %1%2</source>
        <translation>运行结束：%1%2</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="159"/>
        <source>; saved to %1</source>
        <translation>；已保存到 %1</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="161"/>
        <source>counters: %1</source>
        <translation>计数器：%1</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="195"/>
        <source>round %1: %2</source>
        <translation>第 %1 轮：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="195"/>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="182"/>
        <source>median %1 GB/s; %2 slow hosts, %3 slow links</source>
        <translation>中位数 %1 GB/s；慢主机 %2 台，慢链路 %3 条</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="235"/>
        <location filename="../app/gui/runs_panel.cpp" line="270"/>
        <location filename="../app/gui/runs_panel.cpp" line="281"/>
        <source>rackscope</source>
        <translation>rackscope</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="235"/>
        <source>Could not open the run:
%1</source>
        <translation>无法打开运行记录：
%1</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="254"/>
        <source>baseline: </source>
        <translation>基线：</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="257"/>
        <source>record ends before the run did</source>
        <translation>记录在运行结束前中断</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="258"/>
        <source>saved</source>
        <translation>已保存</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="221"/>
        <location filename="../app/gui/runs_panel.cpp" line="263"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="270"/>
        <source>Choose a saved run in the list first.</source>
        <translation>请先在列表中选择一个已保存的运行。</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="275"/>
        <source>Export run</source>
        <translation>导出运行</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="276"/>
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="276"/>
        <source>JSON (*.json)</source>
        <translation>JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../app/gui/runs_panel.cpp" line="282"/>
        <source>Could not export: %1</source>
        <translation>无法导出：%1</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::ServersPanel</name>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="26"/>
        <source>Server</source>
        <translation>服务器</translation>
    </message>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="26"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="26"/>
        <source>Seconds</source>
        <translation>秒数</translation>
    </message>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="58"/>
        <source>flagged slow by the load runs</source>
        <translation>压测判定为慢节点</translation>
    </message>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="84"/>
        <source>not on the fabric</source>
        <translation>不在网络中</translation>
    </message>
    <message>
        <location filename="../app/gui/servers_panel.cpp" line="86"/>
        <source>under %1</source>
        <translation>位于 %1 之下</translation>
    </message>
</context>
<context>
    <name>rackscope::gui::TopologyCanvas</name>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="180"/>
        <source>PCI %1</source>
        <translation>PCI %1</translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="184"/>
        <source>&lt;i&gt;double-click to open or close&lt;/i&gt;</source>
        <translation>&lt;i&gt;双击展开或折叠&lt;/i&gt;</translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="200"/>
        <source>NVLink</source>
        <translation>NVLink</translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="201"/>
        <source>the NIC NCCL would use for this GPU, path</source>
        <translation>NCCL 为该 GPU 选用的网卡，路径</translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="202"/>
        <source>cable</source>
        <translation>线缆</translation>
    </message>
    <message numerus="yes">
        <location filename="../app/gui/topology_canvas.cpp" line="206"/>
        <source> (%n in parallel)</source>
        <translation>
            <numerusform>（%n 根并联）</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="211"/>
        <source>rail %1 (%2)</source>
        <translation>轨道 %1（%2）</translation>
    </message>
    <message>
        <location filename="../app/gui/topology_canvas.cpp" line="234"/>
        <source>Nothing to draw yet: open a topology or connect to servers.</source>
        <translation>尚无内容：请打开拓扑文件或连接服务器。</translation>
    </message>
</context>
<context>
    <name>rsload</name>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="152"/>
        <source>the URL must start with http:// or https://</source>
        <translation>URL 必须以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="155"/>
        <source>a model name is needed (the server&apos;s --served-model-name)</source>
        <translation>需要模型名（服务端的 --served-model-name）</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="157"/>
        <source>the concurrency must be between 0 and 100000</source>
        <translation>并发数必须在 0 到 100000 之间</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="159"/>
        <source>give a concurrency, a request rate, or both</source>
        <translation>请给出并发数、请求速率，或两者都给</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="162"/>
        <source>the request rate must be between 0 and 1000000 per second</source>
        <translation>请求速率必须在每秒 0 到 1000000 之间</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="164"/>
        <source>the burstiness must be above 0 (1 is Poisson)</source>
        <translation>突发度必须大于 0（1 为泊松）</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="166"/>
        <source>request counts cannot be negative</source>
        <translation>请求数不能为负</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="168"/>
        <source>give a request count, a duration, or both</source>
        <translation>请给出请求数、持续时间，或两者都给</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="170"/>
        <source>times cannot be negative</source>
        <translation>时间不能为负</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="172"/>
        <source>the temperature must be between 0 and 2</source>
        <translation>temperature 必须在 0 到 2 之间</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="174"/>
        <source>a CA certificate or skipping the certificate check is for https:// URLs</source>
        <translation>CA 证书和跳过证书校验只适用于 https:// URL</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="178"/>
        <source>the CA certificate file is not PEM certificates (-----BEGIN CERTIFICATE-----), or is over 1 MiB</source>
        <translation>CA 证书文件不是 PEM 证书（-----BEGIN CERTIFICATE-----），或超过 1 MiB</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="183"/>
        <source>the server metrics URL must start with http:// or https://</source>
        <translation>服务器指标 URL 必须以 http:// 或 https:// 开头</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="186"/>
        <source>the turns per conversation must be between 1 and 1000</source>
        <translation>每个对话的轮数必须在 1 到 1000 之间</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="189"/>
        <source>multi-turn conversations need the chat completions API</source>
        <translation>多轮对话需要使用 chat completions 接口</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="192"/>
        <source>a trace is replayed one request at a time, not as conversations</source>
        <translation>轨迹按单个请求回放，不能作为对话回放</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="194"/>
        <source>the think time must be between 0 and 3600 s</source>
        <translation>思考时间必须在 0 到 3600 秒之间</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="197"/>
        <source>the trace speed must be above 0 (1 replays it as it was)</source>
        <translation>轨迹回放速度必须大于 0（1 表示按原速回放）</translation>
    </message>
    <message>
        <location filename="../core/load_model/load_spec.cpp" line="207"/>
        <source>the scrape interval must be between 0.05 and 3600 s</source>
        <translation>抓取间隔必须在 0.05 到 3600 秒之间</translation>
    </message>
</context>
</TS>
