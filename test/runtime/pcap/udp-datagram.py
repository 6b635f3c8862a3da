#!/usr/bin/python3
# One UDP datagram over 127.0.0.1 whose every byte is known: fixed ports, and
# DF set on an unconnected socket, for which Linux gives the IPv4 header an ID
# of 0. With a path, waits until pcap() has written the datagram to that
# pcap file, then prints what the file says of it (and removes it).
import os
import socket
import struct
import sys
import time

PAYLOAD = b"dtx pcap() test: the payload bytes!\n"
SOURCE, DESTINATION = 47231, 47232
IP_MTU_DISCOVER, IP_PMTUDISC_DO = 10, 2


def send():
    receiver = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    receiver.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    receiver.bind(("127.0.0.1", DESTINATION))
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sender.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sender.setsockopt(socket.IPPROTO_IP, IP_MTU_DISCOVER, IP_PMTUDISC_DO)
    sender.bind(("127.0.0.1", SOURCE))
    sender.sendto(PAYLOAD, ("127.0.0.1", DESTINATION))
    receiver.recv(200)
    sender.close()
    receiver.close()


def check(path):
    sent = time.time()
    deadline = sent + 5
    data = b""
    while time.time() < deadline:
        if os.path.exists(path):
            with open(path, "rb") as f:
                data = f.read()
            if len(data) >= 40:
                caplen = struct.unpack_from("=I", data, 32)[0]
                if len(data) >= 40 + caplen:
                    break
        time.sleep(0.05)
    if os.path.exists(path):
        os.unlink(path)
    if len(data) < 40:
        print("no packet in %s (%d bytes)" % (path, len(data)))
        return
    magic, major, minor, zone, sigfigs, snaplen, link = struct.unpack_from("=IHHiIII", data, 0)
    seconds, micros, caplen, length = struct.unpack_from("=IIII", data, 24)
    packet = data[40:40 + caplen]
    print("magic %#x version %d.%d zone %d sigfigs %d snaplen %d link type %d"
          % (magic, major, minor, zone, sigfigs, snaplen, link))
    print("caplen %d len %d, file %d bytes" % (caplen, length, len(data)))
    print("time within 60 s of sending:", abs(seconds + micros / 1e6 - sent) < 60, micros < 10**6)
    print("IPv4 UDP:", packet[0] == 0x45 and packet[9] == 17)
    print("ports:", struct.unpack_from("!HH", packet, 20))
    print("payload start:", packet[28:])


send()
if len(sys.argv) > 1:
    check(sys.argv[1])
else:
    time.sleep(0.2)
