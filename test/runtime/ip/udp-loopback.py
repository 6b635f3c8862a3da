#!/usr/bin/python3
# Two UDP datagrams of 100 bytes over loopback: one on 127.0.0.1, one on ::1.
import socket
import time

for family, address in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    receiver = socket.socket(family, socket.SOCK_DGRAM)
    receiver.bind((address, 0))
    sender = socket.socket(family, socket.SOCK_DGRAM)
    sender.sendto(b"d" * 100, receiver.getsockname()[:2])
    receiver.recv(200)
    sender.close()
    receiver.close()
time.sleep(0.1)
