#!/usr/bin/python3
# Two UDP datagrams over 127.0.0.1: 60 bytes with Don't Fragment set
# (path MTU discovery on), 70 bytes without it (discovery off).
import socket
import time

IP_MTU_DISCOVER = 10
IP_PMTUDISC_DONT = 0
IP_PMTUDISC_DO = 2

receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
receiver.bind(("127.0.0.1", 0))
for size, discovery in ((60, IP_PMTUDISC_DO), (70, IP_PMTUDISC_DONT)):
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, discovery)
    sender.sendto(b"f" * size, receiver.getsockname())
    receiver.recv(200)
    sender.close()
receiver.close()
time.sleep(0.1)
