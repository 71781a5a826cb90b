// SPDX-License-Identifier: GPL-2.0
/*
 * A few real ioctls on each target driver of the BKL pushdown that a QEMU PC
 * can drive without hardware (sg via scsi_debug, mtdchar via mtdram, nvram,
 * hpet, mISDN's timer device, pktcdvd's control device, usbmon, v4l2 via
 * vim2m, the dvb core via vidtv, ipmi_devintf and ipmi_watchdog via QEMU's
 * BMC simulator, vme_user via vme_fake, and megaraid_mm, which registers its
 * character device without an adapter).
 *
 * Copyright (C) 2026 The locked-ioctl authors
 *
 * Every line it prints is "TARGET OP: RESULT" with nothing that differs from
 * boot to boot, so that the output of a kernel built from the unmodified
 * tree and of the migrated one can be compared line by line.  A device that
 * is not there prints "TARGET open: missing".
 *
 *   bkl_targets                 run the checks, print the results
 *   bkl_targets --stress SECS   N threads repeat the read-only ioctls of every
 *                               target for SECS seconds; prints whether each
 *                               one always gave the same result
 *
 * Exit codes: 0 done, 1 usage, 2 stress found an unstable result.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/dvb/dmx.h>
#include <linux/dvb/frontend.h>
#include <linux/hpet.h>
#include <linux/ipmi.h>
#include <linux/pktcdvd.h>
#include <linux/videodev2.h>
#include <linux/watchdog.h>
#include <mtd/mtd-user.h>
#include <scsi/sg.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

/* ioctl ABIs that have no uapi header (from the drivers' own headers) */
#define IMADDTIMER		_IOR('I', 64, int)		/* mISDNif.h */
#define IMDELTIMER		_IOR('I', 65, int)
#define MON_IOCQ_URB_LEN	_IO(0x92, 1)			/* usb/mon/mon_bin.c */
#define MON_IOCG_STATS		_IOR(0x92, 3, struct mon_bin_stats)
#define MON_IOCT_RING_SIZE	_IO(0x92, 4)
#define MON_IOCQ_RING_SIZE	_IO(0x92, 5)

struct mon_bin_stats {
	__u32 queued;
	__u32 dropped;
};

/*
 * Two packed structures, kept as bytes at their offsets.  vme_user.h's
 * struct vme_master: __u32 enable, __u64 vme_addr, __u64 size, __u32 aspace,
 * cycle, dwidth.  megaraid_mm.h's mimd_t: __u32 inlen, outlen, then opcode,
 * subopcode, ..., and the 64-bit data pointer at the end.
 */
#define VME_MASTER_SIZE		32
#define VME_MASTER_ENABLE	0
#define VME_MASTER_ASPACE	20
#define VME_GET_MASTER		_IOR(0xAE, 3, char[VME_MASTER_SIZE])

#define MIMD_SIZE		110
#define MIMD_OPCODE		8
#define MIMD_SUBOPCODE		9
#define MIMD_DATA		102
#define MEGAIOCCMD		_IOWR('m', 0, char[MIMD_SIZE])

static const char *target;

/*
 * CALL(op, expr, fmt, args...): run expr, then report it with the values it
 * wrote: the arguments of one function call are read in no fixed order.
 */
#define CALL(op, expr, ...)					\
	do {							\
		int __ret = (expr);				\
								\
		report(op, __ret, __VA_ARGS__);			\
	} while (0)

/* The errno's name; kernel-internal codes that leak out (ENOTSUPP) have none. */
static const char *errname(int err)
{
	static char buf[32];

	if (strerrorname_np(err))
		return strerrorname_np(err);
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

/* Print "TARGET OP: ok VALUES" or "TARGET OP: ERRNAME"; returns @ret. */
static int report(const char *op, int ret, const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	printf("%s %s: ", target, op);
	if (ret < 0) {
		printf("%s\n", errname(err));
		errno = err;
		return ret;
	}
	printf("ok");
	if (fmt) {
		putchar(' ');
		va_start(ap, fmt);
		vprintf(fmt, ap);
		va_end(ap);
	}
	putchar('\n');
	return ret;
}

static int open_target(const char *name, const char *path, int flags)
{
	int fd;

	target = name;
	fd = open(path, flags | O_CLOEXEC);
	if (fd < 0)
		printf("%s open: %s\n", name, errno == ENOENT ? "missing" : errname(errno));
	return fd;
}

static void sg_inquiry(int fd, char *vendor_product)
{
	unsigned char cdb[6] = { 0x12, 0, 0, 0, 96, 0 }, buf[96] = { 0 }, sense[32];
	struct sg_io_hdr io = {
		.interface_id = 'S', .dxfer_direction = SG_DXFER_FROM_DEV,
		.cmd_len = sizeof(cdb), .mx_sb_len = sizeof(sense),
		.dxfer_len = sizeof(buf), .dxferp = buf, .cmdp = cdb, .sbp = sense,
		.timeout = 5000,
	};
	int ret = ioctl(fd, SG_IO, &io);

	snprintf(vendor_product, 32, "%.8s/%.16s", buf + 8, buf + 16);
	report("SG_IO(INQUIRY)", ret, "status=%d host=%d driver=%d %s",
	       io.status, io.host_status, io.driver_status, vendor_product);
}

static void t_sg(void)
{
	int fd = open_target("sg", "/dev/sg0", O_RDWR), v, size = 65536;
	struct sg_scsi_id id;
	char vp[32];

	if (fd < 0)
		return;
	CALL("SG_GET_VERSION_NUM", ioctl(fd, SG_GET_VERSION_NUM, &v), "%d", v);
	memset(&id, 0, sizeof(id));
	CALL("SG_GET_SCSI_ID", ioctl(fd, SG_GET_SCSI_ID, &id), "channel=%d id=%d lun=%d type=%d",
	     id.channel, id.scsi_id, id.lun, id.scsi_type);
	CALL("SG_SET_RESERVED_SIZE", ioctl(fd, SG_SET_RESERVED_SIZE, &size), NULL);
	size = 0;
	CALL("SG_GET_RESERVED_SIZE", ioctl(fd, SG_GET_RESERVED_SIZE, &size), "%d", size);
	sg_inquiry(fd, vp);
	CALL("SG_IO(NULL)", ioctl(fd, SG_IO, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('S', 0xfe), 0), NULL);
	close(fd);
}

static void t_mtd(void)
{
	int fd = open_target("mtdchar", "/dev/mtd0", O_RDWR);
	struct mtd_info_user mi;
	struct erase_info_user ei = { .start = 0 };
	char buf[16] = "locked-ioctl-mtd", back[16];
	int n;

	if (fd < 0)
		return;
	memset(&mi, 0, sizeof(mi));
	CALL("MEMGETINFO", ioctl(fd, MEMGETINFO, &mi),
	     "type=%u flags=%#x size=%u erasesize=%u writesize=%u",
	     mi.type, mi.flags, mi.size, mi.erasesize, mi.writesize);
	ei.length = mi.erasesize;
	CALL("MEMERASE", ioctl(fd, MEMERASE, &ei), NULL);
	n = pwrite(fd, buf, sizeof(buf), 0) == sizeof(buf) &&
	    pread(fd, back, sizeof(back), 0) == sizeof(back);
	printf("mtdchar write+read: %s\n",
	       n && !memcmp(buf, back, sizeof(buf)) ? "same" : "differs");
	n = -1;
	CALL("MEMGETREGIONCOUNT", ioctl(fd, MEMGETREGIONCOUNT, &n), "%d", n);
	CALL("MEMGETBADBLOCK", ioctl(fd, MEMGETBADBLOCK, &(loff_t){ 0 }), NULL);
	CALL("MEMGETINFO(NULL)", ioctl(fd, MEMGETINFO, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('M', 0xfe), 0), NULL);
	close(fd);
}

static void t_nvram(void)
{
	int fd = open_target("nvram", "/dev/nvram", O_RDWR);
	unsigned char buf[8];

	if (fd < 0)
		return;
	report("read", read(fd, buf, sizeof(buf)) == sizeof(buf) ? 0 : -1, NULL);
	CALL("NVRAM_SETCKS", ioctl(fd, _IO('p', 0x41), 0), NULL);
	CALL("unknown", ioctl(fd, _IO('p', 0x7f), 0), NULL);
	close(fd);
}

static void t_hpet(void)
{
	int fd = open_target("hpet", "/dev/hpet", O_RDONLY);
	struct hpet_info hi;

	if (fd < 0)
		return;
	memset(&hi, 0, sizeof(hi));
	CALL("HPET_INFO", ioctl(fd, HPET_INFO, &hi), "flags=%#lx", hi.hi_flags);
	CALL("HPET_IRQFREQ(0)", ioctl(fd, HPET_IRQFREQ, 0), NULL);
	CALL("HPET_INFO(NULL)", ioctl(fd, HPET_INFO, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('h', 0x7f), 0), NULL);
	close(fd);
}

static void t_misdn(void)
{
	int fd = open_target("mISDN-timerdev", "/dev/mISDNtimer", O_RDWR);
	int arg, id;

	if (fd < 0)
		return;
	arg = 10000;
	CALL("IMADDTIMER", ioctl(fd, IMADDTIMER, &arg), "id>0=%d", arg > 0);
	id = arg;
	CALL("IMDELTIMER", ioctl(fd, IMDELTIMER, &id), "%d", id == arg);
	id = 12345;
	CALL("IMDELTIMER(unknown id)", ioctl(fd, IMDELTIMER, &id), "%d", id);
	CALL("IMADDTIMER(NULL)", ioctl(fd, IMADDTIMER, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('I', 0x7f), 0), NULL);
	close(fd);
}

static void t_pktcdvd(void)
{
	int fd = open_target("pktcdvd", "/dev/pktcdvd/control", O_RDWR);
	struct pkt_ctrl_command c = { .command = PKT_CTRL_CMD_STATUS };

	if (fd < 0)
		return;
	CALL("PACKET_CTRL_CMD(STATUS)", ioctl(fd, PACKET_CTRL_CMD, &c), "devices=%u",
	     c.num_devices);
	c.command = 99;
	CALL("PACKET_CTRL_CMD(99)", ioctl(fd, PACKET_CTRL_CMD, &c), NULL);
	CALL("unknown", ioctl(fd, _IO('X', 0x7f), 0), NULL);
	close(fd);
}

static void t_usbmon(void)
{
	int fd = open_target("usbmon", "/dev/usbmon0", O_RDONLY);
	struct mon_bin_stats st;
	char text[64] = "";
	int ret, sfd;

	if (fd < 0)
		return;
	ret = ioctl(fd, MON_IOCT_RING_SIZE, 1 << 20);
	report("MON_IOCT_RING_SIZE", ret, NULL);
	ret = ioctl(fd, MON_IOCQ_RING_SIZE);
	report("MON_IOCQ_RING_SIZE", ret, "%d", ret);
	CALL("MON_IOCG_STATS", ioctl(fd, MON_IOCG_STATS, &st), NULL);
	CALL("MON_IOCQ_URB_LEN", ioctl(fd, MON_IOCQ_URB_LEN), NULL);
	CALL("unknown", ioctl(fd, _IO(0x92, 0x7f), 0), NULL);
	close(fd);

	target = "usbmon-stat";
	sfd = open("/sys/kernel/debug/usb/usbmon/0s", O_RDONLY | O_CLOEXEC);
	ret = sfd < 0 ? -1 : (int)read(sfd, text, sizeof(text) - 1);
	report("read", ret < 0 ? -1 : 0, "%.8s", text);
	if (sfd >= 0)
		close(sfd);
}

static void t_v4l2(void)
{
	int fd = open_target("v4l2-dev", "/dev/video0", O_RDWR);
	struct v4l2_capability cap;
	struct v4l2_fmtdesc fd_desc = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };
	struct v4l2_format fmt = { .type = V4L2_BUF_TYPE_VIDEO_CAPTURE };

	if (fd < 0)
		return;
	memset(&cap, 0, sizeof(cap));
	CALL("VIDIOC_QUERYCAP", ioctl(fd, VIDIOC_QUERYCAP, &cap), "driver=%s caps=%#x",
	     cap.driver, cap.device_caps);
	CALL("VIDIOC_ENUM_FMT", ioctl(fd, VIDIOC_ENUM_FMT, &fd_desc), "%.4s",
	     (char *)&fd_desc.pixelformat);
	CALL("VIDIOC_G_FMT", ioctl(fd, VIDIOC_G_FMT, &fmt), "%ux%u", fmt.fmt.pix.width,
	     fmt.fmt.pix.height);
	CALL("VIDIOC_QUERYCAP(NULL)", ioctl(fd, VIDIOC_QUERYCAP, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('V', 0xfe), 0), NULL);
	close(fd);
}

static void t_dvb(void)
{
	int fd = open_target("dvb-frontend", "/dev/dvb/adapter0/frontend0", O_RDWR);
	struct dvb_frontend_info fi;
	fe_status_t status;

	if (fd >= 0) {
		memset(&fi, 0, sizeof(fi));
		CALL("FE_GET_INFO", ioctl(fd, FE_GET_INFO, &fi), "name=%s type=%d caps=%#x",
		     fi.name, fi.type, fi.caps);
		CALL("FE_READ_STATUS", ioctl(fd, FE_READ_STATUS, &status), NULL);
		CALL("FE_GET_INFO(NULL)", ioctl(fd, FE_GET_INFO, NULL), NULL);
		CALL("unknown", ioctl(fd, _IO('o', 0xfe), 0), NULL);
		close(fd);
	}
	fd = open_target("dvb-dmxdev", "/dev/dvb/adapter0/demux0", O_RDWR);
	if (fd >= 0) {
		struct dmx_pes_filter_params p = {
			.pid = 0x100, .input = DMX_IN_FRONTEND, .output = DMX_OUT_TAP,
			.pes_type = DMX_PES_OTHER,
		};

		CALL("DMX_SET_BUFFER_SIZE", ioctl(fd, DMX_SET_BUFFER_SIZE, 65536), NULL);
		CALL("DMX_SET_PES_FILTER", ioctl(fd, DMX_SET_PES_FILTER, &p), NULL);
		CALL("DMX_STOP", ioctl(fd, DMX_STOP), NULL);
		CALL("unknown", ioctl(fd, _IO('o', 0xfe), 0), NULL);
		close(fd);
	}
	fd = open_target("dvbdev", "/dev/dvb/adapter0/dvr0", O_RDONLY);
	if (fd >= 0) {
		CALL("DMX_SET_BUFFER_SIZE(dvr)", ioctl(fd, DMX_SET_BUFFER_SIZE, 65536), NULL);
		close(fd);
	}
}

static void t_ipmi(void)
{
	int fd = open_target("ipmi_devintf", "/dev/ipmi0", O_RDWR);
	unsigned int addr = 0;
	struct ipmi_system_interface_addr si = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE, .channel = IPMI_BMC_CHANNEL,
	};
	struct ipmi_req req = {
		.addr = (unsigned char *)&si, .addr_len = sizeof(si), .msgid = 7,
		.msg = { .netfn = 0x06, .cmd = 0x01 },		/* Get Device ID */
	};
	unsigned char data[64];
	struct ipmi_addr raddr;
	struct ipmi_recv recv = {
		.addr = (unsigned char *)&raddr, .addr_len = sizeof(raddr),
		.msg = { .data = data, .data_len = sizeof(data) },
	};
	struct pollfd pfd;
	int ret;

	if (fd < 0)
		return;
	CALL("IPMICTL_GET_MY_ADDRESS_CMD", ioctl(fd, IPMICTL_GET_MY_ADDRESS_CMD, &addr),
	     "%#x", addr);
	ret = ioctl(fd, IPMICTL_SEND_COMMAND, &req);
	if (report("IPMICTL_SEND_COMMAND(Get Device ID)", ret, NULL) == 0) {
		pfd.fd = fd;
		pfd.events = POLLIN;
		poll(&pfd, 1, 5000);
		CALL("IPMICTL_RECEIVE_MSG_TRUNC", ioctl(fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv),
		     "msgid=%ld cc=%#x len=%u", recv.msgid, data[0], recv.msg.data_len);
	}
	CALL("IPMICTL_RECEIVE_MSG(empty)", ioctl(fd, IPMICTL_RECEIVE_MSG, &recv), NULL);
	CALL("IPMICTL_SEND_COMMAND(NULL)", ioctl(fd, IPMICTL_SEND_COMMAND, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('i', 0x7f), 0), NULL);
	close(fd);
}

static void t_watchdog(void)
{
	int fd = open_target("ipmi_watchdog", "/dev/watchdog", O_WRONLY);
	struct watchdog_info wi;
	int t;

	if (fd < 0)
		return;
	memset(&wi, 0, sizeof(wi));
	CALL("WDIOC_GETSUPPORT", ioctl(fd, WDIOC_GETSUPPORT, &wi), "identity=%s options=%#x",
	     wi.identity, wi.options);
	t = 30;
	CALL("WDIOC_SETTIMEOUT", ioctl(fd, WDIOC_SETTIMEOUT, &t), "%d", t);
	t = 0;
	CALL("WDIOC_GETTIMEOUT", ioctl(fd, WDIOC_GETTIMEOUT, &t), "%d", t);
	CALL("WDIOC_KEEPALIVE", ioctl(fd, WDIOC_KEEPALIVE, 0), NULL);
	CALL("WDIOC_GETSUPPORT(NULL)", ioctl(fd, WDIOC_GETSUPPORT, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO('W', 0x7f), 0), NULL);
	/* the magic close: stop the watchdog */
	report("magic close", write(fd, "V", 1) == 1 ? 0 : -1, NULL);
	close(fd);
}

static void t_vme(void)
{
	int fd = open_target("vme_user", "/dev/bus/vme/m0", O_RDWR);
	unsigned char m[VME_MASTER_SIZE] = { 0 };
	__u32 enable, aspace;
	int ret;

	if (fd < 0)
		return;
	ret = ioctl(fd, VME_GET_MASTER, m);
	memcpy(&enable, m + VME_MASTER_ENABLE, sizeof(enable));
	memcpy(&aspace, m + VME_MASTER_ASPACE, sizeof(aspace));
	report("VME_GET_MASTER", ret, "enable=%u aspace=%#x", enable, aspace);
	CALL("VME_GET_MASTER(NULL)", ioctl(fd, VME_GET_MASTER, NULL), NULL);
	CALL("unknown", ioctl(fd, _IO(0xAE, 0x7f), 0), NULL);
	close(fd);
}

/* An old-style driver command: opcode 0x82, the answer written to @out. */
static int megadev_query(int fd, __u8 subopcode, __u32 *out)
{
	unsigned char m[MIMD_SIZE] = { 0 };
	__u64 data = (uintptr_t)out;

	m[MIMD_OPCODE] = 0x82;
	m[MIMD_SUBOPCODE] = subopcode;
	memcpy(m + MIMD_DATA, &data, sizeof(data));
	return ioctl(fd, MEGAIOCCMD, m);
}

static void t_megaraid_mm(void)
{
	int fd = open_target("megaraid_mm", "/dev/megadev0", O_RDWR);
	__u32 v = 0xffffffff;
	int ret;

	if (fd < 0)
		return;
	ret = megadev_query(fd, 'm', &v);
	report("MEGAIOCCMD(QNADAP)", ret, "ret=%d adapters=%u", ret, v);
	ret = megadev_query(fd, 'e', &v);
	report("MEGAIOCCMD(QDRVRVER)", ret, "%#x", v);
	ret = megadev_query(fd, 0, &v);
	report("MEGAIOCCMD(subopcode 0)", ret, "ret=%d", ret);
	CALL("MEGAIOCCMD(NULL)", ioctl(fd, MEGAIOCCMD, NULL), NULL);
	CALL("other type", ioctl(fd, _IO('x', 1), 0), NULL);
	close(fd);
}

/* ---- stress: the read-only ioctls of every target, from many threads ---- */

struct stress_op {
	const char *name;
	const char *path;
	unsigned long cmd;
	size_t argsize;		/* 0: pass no pointer */
	int first;		/* result of the first call: -errno or 0 */
	int unstable;
	unsigned long calls;
};

static struct stress_op stress_ops[] = {
	{ "sg SG_GET_VERSION_NUM", "/dev/sg0", SG_GET_VERSION_NUM, sizeof(int) },
	{ "sg SG_GET_SCSI_ID", "/dev/sg0", SG_GET_SCSI_ID, sizeof(struct sg_scsi_id) },
	{ "mtdchar MEMGETINFO", "/dev/mtd0", MEMGETINFO, sizeof(struct mtd_info_user) },
	{ "hpet HPET_INFO", "/dev/hpet", HPET_INFO, sizeof(struct hpet_info) },
	{ "usbmon MON_IOCG_STATS", "/dev/usbmon0", MON_IOCG_STATS, sizeof(struct mon_bin_stats) },
	{ "v4l2-dev VIDIOC_QUERYCAP", "/dev/video0", VIDIOC_QUERYCAP,
	  sizeof(struct v4l2_capability) },
	{ "dvb-frontend FE_GET_INFO", "/dev/dvb/adapter0/frontend0", FE_GET_INFO,
	  sizeof(struct dvb_frontend_info) },
	{ "ipmi_devintf IPMICTL_GET_MY_ADDRESS_CMD", "/dev/ipmi0", IPMICTL_GET_MY_ADDRESS_CMD,
	  sizeof(unsigned int) },
	{ "vme_user VME_GET_MASTER", "/dev/bus/vme/m0", VME_GET_MASTER, VME_MASTER_SIZE },
	{ "pktcdvd unknown", "/dev/pktcdvd/control", _IO('X', 0x7f), 0 },
	{ "mISDN-timerdev unknown", "/dev/mISDNtimer", _IO('I', 0x7f), 0 },
	{ "megaraid_mm other type", "/dev/megadev0", _IO('x', 1), 0 },
};

#define NR_STRESS_OPS	ARRAY_SIZE(stress_ops)

static int stress_fds[NR_STRESS_OPS];
static pthread_mutex_t stress_mutex = PTHREAD_MUTEX_INITIALIZER;
static long long stress_end;

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void *stress_fn(void *arg)
{
	unsigned int i = (uintptr_t)arg;
	char buf[512];

	while (now_ms() < stress_end) {
		struct stress_op *op = &stress_ops[i++ % NR_STRESS_OPS];
		int fd = stress_fds[op - stress_ops], ret;

		if (fd < 0)
			continue;
		ret = ioctl(fd, op->cmd, op->argsize ? buf : NULL) ? -errno : 0;
		pthread_mutex_lock(&stress_mutex);
		if (op->calls++ == 0)
			op->first = ret;
		else if (ret != op->first)
			op->unstable++;
		pthread_mutex_unlock(&stress_mutex);
	}
	return NULL;
}

static int run_stress(int seconds, int nthreads)
{
	pthread_t threads[64];
	unsigned int i;
	int bad = 0;

	for (i = 0; i < NR_STRESS_OPS; i++)
		stress_fds[i] = open(stress_ops[i].path, O_RDONLY | O_CLOEXEC);
	stress_end = now_ms() + seconds * 1000LL;
	for (i = 0; i < (unsigned int)nthreads; i++)
		pthread_create(&threads[i], NULL, stress_fn, (void *)(uintptr_t)(i * 5));
	for (i = 0; i < (unsigned int)nthreads; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < NR_STRESS_OPS; i++) {
		struct stress_op *op = &stress_ops[i];

		if (stress_fds[i] < 0) {
			printf("stress %s: missing\n", op->name);
			continue;
		}
		printf("stress %s: %s, %s\n", op->name,
		       op->first ? errname(-op->first) : "ok",
		       op->unstable ? "UNSTABLE" : "stable");
		fprintf(stderr, "stress %s: %lu calls, %d differed\n", op->name, op->calls,
			op->unstable);
		bad |= op->unstable != 0;
		close(stress_fds[i]);
	}
	return bad ? 2 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 2 && !strcmp(argv[1], "--help")) {
		printf("usage: %s [--stress SECONDS [THREADS]]\n", argv[0]);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "--stress"))
		return run_stress(atoi(argv[2]), argc > 3 ? atoi(argv[3]) : 4);
	if (argc != 1) {
		fprintf(stderr, "usage: %s [--stress SECONDS [THREADS]]\n", argv[0]);
		return 1;
	}
	t_sg();
	t_mtd();
	t_nvram();
	t_hpet();
	t_misdn();
	t_pktcdvd();
	t_usbmon();
	t_v4l2();
	t_dvb();
	t_ipmi();
	t_watchdog();
	t_vme();
	t_megaraid_mm();
	return 0;
}
