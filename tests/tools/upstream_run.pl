#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The runner of tests/cli/progs_upstream_diff.sh: reads the case files
# into one list, and runs the list through one build of setcap, getcap,
# getpcaps and capsh.
#
#   perl upstream_run.pl list ROOT [clean:]FILE...  > LIST
#   perl upstream_run.pl run LIST BIN TEMPLATE DIR
#
# list: one line per case of the case files, "NNNN<TAB>PROGRAM<TAB>IDS
# <TAB>MODE<TAB>COMMAND", the format upstream_compare.pl reads. A case
# line is a shell command line, optionally after "root " (run only when
# ROOT is 1) or "nobody " (only when ROOT is 1: run as the user nobody,
# without capabilities or groups), optionally followed by "#@ ID ..."
# (rows of docs/differences.md, see upstream_compare.pl). Lines naming
# none of the four programs are left out. MODE is "-" or a comma list of
# "nobody" and "clean" (from a FILE marked "clean:", whose cases write
# only to scratch files; see below).
#
# run: every case in DIR/w, a copy of TEMPLATE, with BIN first in PATH,
# LC_ALL=C and stdin /dev/null. DIR/results gets, for each case in
# order, a line "NNNN RC OUTLEN ERRLEN" and then its standard output and
# standard error, OUTLEN and ERRLEN bytes (upstream_compare.pl reads it
# back); RC is the status as sh gives it, 124 after 20 seconds, when the
# case's processes are killed. The copy is made again after a case that
# may have changed it (one naming setcap, or with a '>'), unless the case
# is clean. Words "s/NAME" name scratch files: each is made again, empty
# and without capabilities, before a case that names it.
#
# Cost is the point of this runner (the suite is among the costliest):
# one process per command, no shell where none is needed and no
# timeout(1); the outputs go to two memory files reused case after case
# (a file created on disk costs more than most cases); the fixture is
# copied here, not by cp(1); and a program found as one of
# tests/tools/libcap_ref.sh's wrapper scripts is run as the wrapper would
# run it, without its shell.
#
# A command in the simple syntax (words, bare or in '...' or $'...' with
# \xHH, \n, \t, \\ and \' escapes; "&&" between commands; "<WORD", "<&-"
# and "0>WORD" among a command's words) runs as sh would run it. Anything
# else (pipes, ';', '$(...)', globs, '>' of stdout) is given to sh -c.
use strict;
use warnings;

require 'syscall.ph';

my $TIMEOUT = 20;
# UPSTREAM_RUN_SLOW=SECONDS names on stderr each case that took longer.
my $slow = $ENV{UPSTREAM_RUN_SLOW};
my $PROGS = qr/\b(setcap|getcap|getpcaps|capsh|capmanifest|perfdoctor|capcheck|capaudit)\b/;

sub list_cases {
	my ($root, @files) = @_;
	my $n = 0;
	for my $spec (@files) {
		my $clean = $spec =~ s/^clean://;
		open(my $fh, '<', $spec) or die "cannot read $spec: $!\n";
		while (my $line = <$fh>) {
			chomp $line;
			next if $line =~ /^(#|$)/;
			my @mode;
			if ($line =~ s/^(root|nobody) //) {
				next unless $root;
				push @mode, 'nobody' if $1 eq 'nobody';
			}
			push @mode, 'clean' if $clean;
			my $prog = $line =~ $PROGS ? $1 : '';
			next unless $prog =~ /^(setcap|getcap|getpcaps|capsh)$/;
			my $ids = '-';
			if ($line =~ s/\s*#@ (.*)$//) {
				$ids = join(',', split(' ', $1));
			}
			printf "%04d\t%s\t%s\t%s\t%s\n", ++$n, $prog, $ids,
			       @mode ? join(',', @mode) : '-', $line;
		}
		close $fh;
	}
}

# The simple syntax: a list of commands, each { argv => [...], stdin =>
# undef | "close" | ["<" or ">", path] }, or undef when the line needs a
# shell.
sub parse_simple {
	my ($cmd) = @_;
	my @cmds = ({ argv => [] });
	pos($cmd) = 0;
	while (1) {
		$cmd =~ /\G[ \t]*/gc;
		last if pos($cmd) == length $cmd;
		my $cur = $cmds[-1];
		if ($cmd =~ /\G&&(?=[ \t]|$)/gc) {
			return undef unless @{$cur->{argv}};
			push @cmds, { argv => [] };
			next;
		}
		if ($cmd =~ /\G<&-(?=[ \t]|$)/gc) {
			return undef if defined $cur->{stdin};
			$cur->{stdin} = 'close';
			next;
		}
		if ($cmd =~ /\G(<|0>)/gc) {
			my $op = $1 eq '<' ? '<' : '>';
			my $w = word(\$cmd);
			return undef if !defined $w || defined $cur->{stdin};
			$cur->{stdin} = [$op, $w];
			next;
		}
		my $w = word(\$cmd);
		return undef unless defined $w;
		push @{$cur->{argv}}, $w;
	}
	return undef unless @{$cmds[-1]{argv}};
	return \@cmds;
}

# One word at pos(): bare, '...' or $'...'; undef when it is not one of
# those (or is not followed by a blank or the end).
sub word {
	my ($s) = @_;
	my $w;
	if ($$s =~ /\G([A-Za-z0-9_.\/=,:+@%^-][A-Za-z0-9_.\/=,:+@%^!-]*)/gc) {
		$w = $1;
	} elsif ($$s =~ /\G'([^']*)'/gc) {
		$w = $1;
	} elsif ($$s =~ /\G\$'((?:[^'\\]|\\x[0-9a-fA-F]{2}|\\[nt\\'])*)'/gc) {
		$w = $1;
		$w =~ s/\\(x([0-9a-fA-F]{2})|[nt\\'])/
			defined $2 ? chr(hex $2) : { n => "\n", t => "\t",
			'\\' => '\\', "'" => "'" }->{$1}/ge;
	} else {
		return undef;
	}
	return $$s =~ /\G(?=[ \t]|$)/gc ? $w : undef;
}

# How to start NAME from PATH: the argv to exec, the program first, or
# undef for a name not found (exec then fails as sh's would). One of
# libcap_ref.sh's wrappers is a script of one exec line; running that
# line ourselves saves a shell per case.
my %how;
sub resolve {
	my ($name, $path) = @_;
	return $how{$name} if exists $how{$name};
	$how{$name} = undef;
	return $how{$name} = [$name] if $name =~ m{/};
	for my $d (split /:/, $path) {
		my $f = "$d/$name";
		next unless -f $f && -x _;
		$how{$name} = [$f];
		open(my $fh, '<', $f) or last;
		# A wrapper is a few hundred bytes: a program is not read on.
		my $text = '';
		read($fh, $text, 1024);
		close $fh;
		$how{$name} = [$1, '--library-path', $2, '--argv0', $name, $3]
			if $text =~ /\A#!\/bin\/sh\n# libcap [0-9.]+'s \Q$name\E .*\nexec "([^"]+)" \\\n\t--library-path "([^"]+)" \\\n\t--argv0 \Q$name\E "([^"]+)" "\$\@"\n\z/;
		last;
	}
	return $how{$name};
}

my ($nobody_uid, $nobody_gid);
sub nobody_ids {
	unless (defined $nobody_uid) {
		my @pw = getpwnam('nobody');
		($nobody_uid, $nobody_gid) = @pw ? ($pw[2], $pw[3]) : (65534, 65534);
	}
	return ($nobody_uid, $nobody_gid);
}

# A memory file (memfd_create(2), close-on-exec), opened read-write.
sub memory_file {
	my ($name) = @_;
	my $fd = syscall(&SYS_memfd_create, $name, 1);
	die "memfd_create: $!\n" if $fd < 0;
	open(my $fh, '+<&=', $fd) or die "fdopen: $!\n";
	binmode $fh;
	return $fh;
}

# Leaves the child at once: exit() would flush the parent's buffers a
# second time (the results file's among them).
sub leave {
	my ($status, $why) = @_;
	syswrite(STDERR, $why) if defined $why;
	syscall(&SYS_exit_group, $status);
}

# The child's side of spawn(): never returns.
sub start {
	my ($w, $cmd, $argv, $how, $out, $err, $as_nobody) = @_;
	setpgrp(0, 0);
	chdir $w or leave(2, "cannot enter $w: $!\n");
	open(STDOUT, '>&', $out) or leave(2);
	open(STDERR, '>&', $err) or leave(2);
	my $in = $cmd ? $cmd->{stdin} : undef;
	if (defined $in && !ref $in) {
		close STDIN;
	} elsif (defined $in) {
		open(STDIN, $in->[0], $in->[1]) or
			leave(2, "sh: 1: cannot open $in->[1]: $!\n");
	} else {
		open(STDIN, '<', '/dev/null') or leave(2);
	}
	if ($as_nobody) {
		# No groups, then the group, then the user: no way back.
		my ($uid, $gid) = nobody_ids();
		syscall(&SYS_setgroups, 0, 0) == 0 &&
			syscall(&SYS_setresgid, $gid, $gid, $gid) == 0 &&
			syscall(&SYS_setresuid, $uid, $uid, $uid) == 0 or
			leave(2, "cannot become nobody: $!\n");
	}
	leave(127, "sh: 1: $argv->[0]: not found\n") unless $how;
	my ($prog, @pre) = @$how;
	exec { $prog } (@pre ? ($prog, @pre) : $argv->[0]), @$argv[1 .. $#$argv]
		or leave($!{ENOENT} ? 127 : 126, "sh: 1: $argv->[0]: $!\n");
}

# Runs cmd (or sh -c line) in w, its output added to the memory files.
# Returns the status as sh reports it.
sub spawn {
	my ($w, $cmd, $line, $out, $err, $as_nobody) = @_;
	my @argv = $cmd ? @{$cmd->{argv}} : ('sh', '-c', $line);
	my $how = resolve($argv[0], $ENV{PATH});
	my $pid = fork();
	die "fork: $!\n" unless defined $pid;
	start($w, $cmd, \@argv, $how, $out, $err, $as_nobody) if $pid == 0;
	my $status;
	eval {
		local $SIG{ALRM} = sub { die "timeout\n" };
		alarm $TIMEOUT;
		waitpid($pid, 0);
		$status = $?;
		alarm 0;
	};
	if ($@) {
		# Not reaped yet, so the group is still the case's own.
		kill 'KILL', -$pid;
		waitpid($pid, 0);
		return 124;
	}
	return $status & 127 ? 128 + ($status & 127) : $status >> 8;
}

# cp -a of the fixture, in this process: directories, regular files and
# symbolic links with their modes and times, and security.capability,
# the one extended attribute the fixture carries.
sub copy_tree {
	my ($from, $to) = @_;
	my @st = lstat $from or die "cannot stat $from: $!\n";
	if (-l _) {
		symlink(readlink($from), $to) or die "cannot link $to: $!\n";
		return;
	}
	if (-d _) {
		mkdir $to or die "cannot make $to: $!\n";
		opendir(my $dh, $from) or die "cannot list $from: $!\n";
		for my $e (sort grep { !/^\.\.?$/ } readdir $dh) {
			copy_tree("$from/$e", "$to/$e");
		}
		closedir $dh;
	} elsif (-f _) {
		open(my $in, '<:raw', $from) or die "cannot read $from: $!\n";
		open(my $out, '>:raw', $to) or die "cannot write $to: $!\n";
		local $/;
		print $out (<$in> // '');
		close $in;
		close $out or die "cannot write $to: $!\n";
	} else {
		die "$from: the fixture holds only directories, files and links\n";
	}
	chmod $st[2] & 07777, $to or die "cannot chmod $to: $!\n";
	utime $st[8], $st[9], $to;
	my $name = 'security.capability';
	my $buf = "\0" x 64;
	my $n = syscall(&SYS_getxattr, $from, $name, $buf, length $buf);
	if ($n > 0) {
		syscall(&SYS_setxattr, $to, $name, substr($buf, 0, $n), $n, 0) == 0
			or die "cannot copy the capabilities of $from: $!\n";
	}
}

sub fresh_scratch {
	my ($w, $line) = @_;
	my %seen;
	for my $f ($line =~ m{(?:^|[ '"])(s/[A-Za-z0-9_.-]+)}g) {
		next if $seen{$f}++;
		unlink "$w/$f";
		open(my $fh, '>', "$w/$f") or die "cannot make $w/$f: $!\n";
		close $fh;
	}
}

# All of a memory file, which is then emptied for the next case.
sub take {
	my ($fh) = @_;
	my ($all, $buf) = ('', '');
	sysseek($fh, 0, 0) or die "seek: $!\n";
	$all .= $buf while sysread($fh, $buf, 65536);
	truncate($fh, 0) or die "truncate: $!\n";
	sysseek($fh, 0, 0);
	return $all;
}

sub run_cases {
	my ($list, $bin, $tpl, $dir) = @_;
	my $w = "$dir/w";
	$ENV{PATH} = "$bin:/usr/sbin:/usr/bin:/sbin:/bin";
	$ENV{LC_ALL} = 'C';
	my ($out, $err) = (memory_file('out'), memory_file('err'));
	open(my $fh, '<', $list) or die "cannot read $list: $!\n";
	open(my $res, '>:raw', "$dir/results") or die "cannot write $dir/results\n";
	my $dirty = 1;
	while (my $l = <$fh>) {
		chomp $l;
		my ($n, $prog, $ids, $mode, $line) = split /\t/, $l, 5;
		my %mode = map { $_ => 1 } split /,/, $mode;
		if ($dirty) {
			require File::Path;
			File::Path::remove_tree($w);
			die "cannot remove $w\n" if -e $w;
			copy_tree($tpl, $w);
			# nobody's cases reach ../../ro from here
			chmod 0711, $w;
		}
		$dirty = !$mode{clean} && $line =~ /setcap|>/ ? 1 : 0;
		fresh_scratch($w, $line);
		my $cmds = parse_simple($line);
		my $t0 = time;
		my $rc;
		if ($cmds) {
			for my $c (@$cmds) {
				$rc = spawn($w, $c, undef, $out, $err, $mode{nobody});
				last if $rc != 0;
			}
		} else {
			$rc = spawn($w, undef, $line, $out, $err, $mode{nobody});
		}
		printf STDERR "%s: case %s took %d s: %s\n", $dir, $n, time - $t0,
		       $line if $slow && time - $t0 > $slow;
		my ($o, $e) = (take($out), take($err));
		print $res "$n $rc ", length $o, ' ', length $e, "\n", $o, $e;
	}
	close $fh;
	close $res or die "cannot write $dir/results\n";
}

my $what = shift @ARGV // '';
if ($what eq 'list' && @ARGV >= 2) {
	list_cases(@ARGV);
} elsif ($what eq 'run' && @ARGV == 4) {
	run_cases(@ARGV);
} else {
	die "usage: $0 list ROOT [clean:]FILE... | run LIST BIN TEMPLATE DIR\n";
}
