/* SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only */
/*
 * capaudit_ping: one ICMP echo to 127.0.0.1, started the way iputils
 * ping starts, for tests/root/capaudit_suggest.sh on a machine without
 * ping: setuid(2) to its own uid and capset(2) to its own sets (checks
 * of cap_setuid and cap_setpcap that it needs neither of), then a raw
 * ICMP socket (cap_net_raw), or an ICMP datagram socket when
 * net.ipv4.ping_group_range allows. Exits 0 on a reply, 1 without one,
 * 2 when no socket could be had.
 *
 * capaudit_ping --lo-up: sets the loopback interface up (in a new
 * network namespace, where it starts down).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

static int lo_up(void)
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 1;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return 1;
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0) {
		perror("capaudit_ping: lo");
		return 1;
	}
	close(fd);
	return 0;
}

/* What ping does first: give up privileges it may have been started with. */
static void drop_privileges(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (setuid(getuid()) < 0)
		perror("capaudit_ping: setuid");
	if (syscall(SYS_capget, &h, d) == 0)
		syscall(SYS_capset, &h, d);
}

static unsigned short checksum(const void *p, size_t len)
{
	const unsigned char *b = p;
	unsigned long sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (unsigned long)(b[i] << 8 | b[i + 1]);
	if (len & 1)
		sum += (unsigned long)(b[len - 1] << 8);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((unsigned short)~sum);
}

int main(int argc, char **argv)
{
	struct sockaddr_in to;
	struct icmphdr echo;
	unsigned char reply[1500];
	struct pollfd pfd;
	int fd, raw = 1;
	ssize_t n;

	if (argc == 2 && strcmp(argv[1], "--lo-up") == 0)
		return lo_up();
	drop_privileges();
	fd = socket(AF_INET, SOCK_RAW | SOCK_CLOEXEC, IPPROTO_ICMP);
	if (fd < 0) {
		raw = 0;
		fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	}
	if (fd < 0) {
		printf("socket: %s\n", strerror(errno));
		return 2;
	}
	memset(&to, 0, sizeof(to));
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	memset(&echo, 0, sizeof(echo));
	echo.type = ICMP_ECHO;
	echo.un.echo.id = htons((unsigned short)getpid());
	echo.un.echo.sequence = htons(1);
	echo.checksum = checksum(&echo, sizeof(echo));
	if (sendto(fd, &echo, sizeof(echo), 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0) {
		printf("sendto: %s\n", strerror(errno));
		return 1;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	while (poll(&pfd, 1, 2000) == 1) {
		const struct icmphdr *ic;

		n = recv(fd, reply, sizeof(reply), 0);
		if (n < 0)
			break;
		/* A raw socket hands over the IP header too. */
		ic = (const struct icmphdr *)(reply +
					      (raw ? (reply[0] & 0xf) * 4 : 0));
		if ((const unsigned char *)(ic + 1) <= reply + n &&
		    ic->type == ICMP_ECHOREPLY) {
			printf("reply from 127.0.0.1 (%s socket)\n",
			       raw ? "raw" : "datagram");
			return 0;
		}
	}
	printf("no reply\n");
	return 1;
}
