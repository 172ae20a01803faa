#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The read-only fixture of tests/cli/progs_upstream_diff.sh's generated
# cases (tests/tools/upstream_gen.pl, which reads the names below from
# here), named as ../../ro from every case's directory and shared by the
# three builds the suite runs side by side.
#
#   perl upstream_fixture.pl build DIR    builds it (as root with file
#                                         capabilities, else without)
#   perl upstream_fixture.pl digest DIR   lists each entry's mode and
#                                         security.capability: the suite
#                                         compares the list before and
#                                         after the cases, which must not
#                                         change it
#
# DIR/in     standard input for setcap -: empty, a newline, blanks, one
#            or two lines, 2047, 2048 and 2049 bytes, a NUL, 1 MiB
# DIR/kinds  a file with capabilities, an empty one, a directory, links
#            to both, a dangling link, a FIFO
# DIR/caps   every revision of security.capability the kernel stores, bits
#            41 and 63, every bit, root ids 1, 1000, 2^31 - 1, 2^31 and
#            2^32 - 2
# DIR/deep   44 levels of 100-byte names: files named at level 40 so that
#            their paths from a case's directory are 4090 to 4100 bytes
#            long, and a file with capabilities and one without at every
#            level
# DIR/ur     directories of modes 000, 333, 666, 111 and 700 (to nobody:
#            none, search without listing, listing without search,
#            search only, none), each with a file with capabilities, and
#            a mode-0 file with capabilities in a readable directory
use strict;
use warnings;

require 'syscall.ph';

# Files of each kind, by path from a case's directory.
sub kinds {
	return (map { "../../ro/kinds/$_" } qw(file empty dir link-file
		link-dir dangling fifo none)), '../../ro/kinds/../kinds/file',
		'/dev/null';
}

# The capability values of ro/caps: revision, words, root id.
my @CAPVALUES = (
	# name, revision, permitted[2], inheritable[2], effective, rootid
	# (the kernel stores revisions 2 and 3 only)
	['v2-p', 2, [1, 0], [0, 0], 0, undef],
	['v2-ep', 2, [1 << 13, 0], [0, 0], 1, undef],
	['v2-i-high', 2, [0, 0], [0, 1 << 6], 0, undef],
	['v2-bit41', 2, [0, 1 << 9], [0, 0], 0, undef],
	['v2-bit63', 2, [0, 1 << 31], [0, 0], 1, undef],
	['v2-every', 2, [0xffffffff, 0xffffffff], [0, 0], 1, undef],
	['v2-known', 2, [0xffffffff, 0x1ff], [0xffffffff, 0x1ff], 0, undef],
	['v2-empty', 2, [0, 0], [0, 0], 0, undef],
	['v2-e-only', 2, [0, 0], [0, 0], 1, undef],
	(map { ["v3-root-$_->[0]", 3, [1, 0], [0, 0], 1, $_->[1]] }
	 ['1', 1], ['1000', 1000], ['2^31-1', 2147483647],
	 ['2^31', 2147483648], ['2^32-2', 4294967294]),
);

sub caps_files { return (map { $_->[0] } @CAPVALUES), 'none', 'plain'; }

sub unreadable { return qw(mode000 mode333 mode666 mode111 mode700 inside); }

# The tree that crosses PATH_MAX: from a case's directory, the files'
# paths "../../ro/deep/D/D/.../NAME" take every length from 4090 to 4100
# at one depth, and the tree goes on beyond it (glibc's nftw, which
# libcap's getcap uses, keeps at most a few directories open).
my $DEEP = '../../ro/deep';
my $SEG = 'd' x 100;

sub deep_levels { return 44; }

sub deep_files {
	my @f;
	my $prefix = $DEEP . ("/$SEG" x 40);
	for my $len (4090 .. 4100) {
		push @f, "$prefix/" . ('f' x ($len - length($prefix) - 1));
	}
	return @f;
}

sub stdin_files {
	return qw(empty newline blank valid valid-nl two-lines nl-first
		  2047 2048 2049 2048-nl 4096 bad-2048 bad-2049 nul long);
}

sub write_file {
	my ($path, $data) = @_;
	open(my $fh, '>', $path) or die "cannot write $path: $!\n";
	binmode $fh;
	print $fh $data;
	close $fh or die "cannot write $path: $!\n";
}

# setxattr(2) of security.capability, raw: the kernel checks the value.
sub set_capxattr {
	my ($path, $value) = @_;
	require 'syscall.ph';
	my $name = 'security.capability';
	return syscall(&SYS_setxattr, $path, $name, $value, length($value), 0) == 0;
}

sub capvalue {
	my ($rev, $p, $i, $e, $rootid) = @_;
	my $magic = ($rev == 1 ? 0x01000000 : $rev == 2 ? 0x02000000 : 0x03000000)
		| ($e ? 1 : 0);
	my $v = pack('V', $magic) . pack('VV', $p->[0], $i->[0]);
	$v .= pack('VV', $p->[1], $i->[1]) if $rev >= 2;
	$v .= pack('V', $rootid) if $rev == 3;
	return $v;
}

sub fixture {
	my ($dir) = @_;
	my $root = $> == 0;
	mkdir $dir or die "mkdir $dir: $!\n";
	for my $d (qw(in caps kinds deep ur)) {
		mkdir "$dir/$d" or die "mkdir $dir/$d: $!\n";
	}
	# Standard input for setcap -.
	my $pad = sub { my ($len, $t) = @_; return (' ' x ($len - length $t)) . $t; };
	my %in = (
		'empty' => '', 'newline' => "\n", 'blank' => " \t\n",
		'valid' => 'cap_chown=ep', 'valid-nl' => "cap_chown=ep\n",
		'two-lines' => "cap_chown=p\ncap_kill=p\n",
		'nl-first' => "\ncap_chown=p\n",
		'2047' => $pad->(2047, 'cap_chown=ep'),
		'2048' => $pad->(2048, 'cap_chown=ep'),
		'2049' => $pad->(2049, 'cap_chown=ep'),
		'2048-nl' => $pad->(2047, 'cap_chown=ep') . "\n",
		'4096' => $pad->(4096, 'cap_chown=ep'),
		'bad-2048' => $pad->(2048, 'cap_bogus=ep'),
		'bad-2049' => $pad->(2049, 'cap_bogus=ep'),
		'nul' => "cap_chown=p\0cap_kill=p",
		'long' => ('cap_chown,' x 104857) . 'cap_kill=ep',
	);
	write_file("$dir/in/$_", $in{$_}) for keys %in;

	# Files of every kind.
	my $k = "$dir/kinds";
	write_file("$k/file", "x\n");
	write_file("$k/empty", '');
	mkdir "$k/dir";
	symlink 'file', "$k/link-file";
	symlink 'dir', "$k/link-dir";
	symlink 'none', "$k/dangling";
	system('mkfifo', "$k/fifo") == 0 or die "mkfifo\n";
	if ($root) {
		set_capxattr("$k/file", capvalue(2, [1, 0], [0, 0], 1, undef))
			or die "setxattr $k/file: $!\n";
	}

	# Every revision and root id.
	for my $c (@CAPVALUES) {
		my ($name, $rev, $p, $i, $e, $rootid) = @$c;
		write_file("$dir/caps/$name", '');
		next unless $root;
		set_capxattr("$dir/caps/$name", capvalue($rev, $p, $i, $e, $rootid))
			or die "setxattr $name: $!\n";
	}
	write_file("$dir/caps/plain", '');

	# The deep tree: at level 40, files named to every length around
	# PATH_MAX; below it, more levels with a file with capabilities
	# and one without in each.
	my $path = "$dir/deep";
	my $shown = $DEEP;
	for my $level (1 .. deep_levels()) {
		$path .= "/$SEG";
		$shown .= "/$SEG";
		# mkdir by a path past PATH_MAX fails: go there by descriptor.
		mkdir_deep($path) or die "mkdir level $level: $!\n";
		for my $f ("c$level", "p$level") {
			make_deep_file($path, $f, $root && $f =~ /^c/);
		}
		if ($level == 40) {
			for my $len (4090 .. 4100) {
				my $name = 'f' x ($len - length($shown) - 1);
				make_deep_file($path, $name, $root);
			}
		}
	}

	# What nobody may not read: directories of every mode, each with a
	# file with capabilities, and one unreadable file in a readable
	# directory.
	my $ur = "$dir/ur";
	for my $m (qw(000 333 666 111 700)) {
		my $d = "$ur/mode$m";
		mkdir $d;
		write_file("$d/t", '');
		mkdir "$d/sub";
		write_file("$d/sub/u", '');
		if ($root) {
			set_capxattr("$d/t", capvalue(2, [1, 0], [0, 0], 0, undef));
			set_capxattr("$d/sub/u", capvalue(2, [2, 0], [0, 0], 0, undef));
		}
		chmod oct($m), $d;
	}
	mkdir "$ur/inside";
	write_file("$ur/inside/t", '');
	set_capxattr("$ur/inside/t", capvalue(2, [1, 0], [0, 0], 0, undef)) if $root;
	chmod 0, "$ur/inside/t";
	chmod 0755, $dir, map { "$dir/$_" } qw(in caps kinds deep ur ur/inside);
}

# Paths past PATH_MAX cannot be named whole: walk there with chdir.
sub mkdir_deep {
	my ($path) = @_;
	return in_dir_of($path, sub { mkdir $_[0] });
}

sub make_deep_file {
	my ($dir, $name, $with_caps) = @_;
	in_dir_of("$dir/$name", sub {
		write_file($_[0], '');
		set_capxattr($_[0], capvalue(2, [1, 0], [0, 0], 0, undef))
			if $with_caps;
		1;
	}) or die "cannot make $name: $!\n";
}

# Runs fn(basename) in the directory of path, reached one component at a
# time; back to where we were afterwards.
sub in_dir_of {
	my ($path, $fn) = @_;
	require Cwd;
	my $back = Cwd::getcwd();
	my @parts = split m{/}, $path;
	my $base = pop @parts;
	chdir '/' if $path =~ m{^/};
	for my $p (@parts) {
		next if $p eq '';
		chdir $p or return 0;
	}
	my $ok = $fn->($base);
	chdir $back or die "cannot go back to $back\n";
	return $ok;
}

# What the three builds share must stay as it was built: one line per
# entry of DIR, its mode and its security.capability.
sub digest {
	my ($dir, $rel) = @_;
	my $path = defined $rel ? "$dir/$rel" : $dir;
	my @st = lstat $path or return;
	my ($name, $buf) = ('security.capability', "\0" x 64);
	my $n = syscall(&SYS_lgetxattr, $path, $name, $buf, 64);
	printf "%s %o %s\n", $rel // '.', $st[2],
	       $n > 0 ? unpack('H*', substr($buf, 0, $n)) : '-';
	return if -l _ || !-d _;
	opendir(my $dh, $path) or return;	# as root every one opens
	for my $e (sort grep { !/^\.\.?$/ } readdir $dh) {
		# Past PATH_MAX a path no longer names the entry: the deep
		# tree is walked by its parts.
		next if length("$path/$e") >= 4000;
		digest($dir, defined $rel ? "$rel/$e" : $e);
	}
	closedir $dh;
}

unless (caller) {
	my ($mode, $dir) = @ARGV;
	if (($mode // '') eq 'build' && defined $dir) {
		fixture($dir);
	} elsif (($mode // '') eq 'digest' && defined $dir) {
		digest($dir);
	} else {
		die "usage: $0 build DIR | digest DIR\n";
	}
}
1;
