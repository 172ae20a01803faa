#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The verdict of tests/cli/progs_upstream_diff.sh: compares, case by case,
# what our setcap, getcap, getpcaps and capsh printed with what upstream's
# 2.75 and 2.78 printed, through the rows of docs/differences.md.
#
#   perl upstream_compare.pl RULES DOC CASES OURS OLD NEW
#
# CASES has one line per case, "NNNN<TAB>PROGRAM<TAB>IDS<TAB>MODE<TAB>
# COMMAND" (IDS: the rows named by the case's "#@" note, comma-separated,
# or "-"; tests/tools/upstream_run.pl writes it). OURS, OLD and NEW are
# the directories upstream_run.pl ran the cases in: each holds results,
# every case's exit status, standard output and standard error.
#
# libcap 2.76 is where OLD and NEW agree. Where they differ, rules with
# target "2.75" and "2.78" (rows saying which of the two 2.76 does) must
# bring both to one text, which is then 2.76's. Rules with target "ours"
# and "ref" turn our output and 2.76's into what must then be equal byte
# for byte (additions taken out, a deliberate change undone); a case whose
# difference is whole (a new option) names its row in a "#@" note, a rule
# of target "case". Every rule is a row id of DOC, every row of DOC that
# says this suite checks it must be used by some case, and a "#@" note on
# a case that does not differ is stale: all are failures.
#
# RULES: "ID TARGET PROGRAM STREAM PERL-CODE" (PROGRAM "*" for all, STREAM
# out, err or "-"); PERL-CODE runs with $_ holding the whole stream, e.g.
# s/^.*\(not in libcap\)\n//mg. Prints one line per failure and a summary;
# exits 0 when nothing failed.
use strict;
use warnings;

my ($rules_f, $doc_f, $cases_f, $ours, $old, $new) = @ARGV;
die "usage: $0 RULES DOC CASES OURS OLD NEW\n" unless defined $new;

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or return undef;
	local $/;
	my $s = <$fh>;
	close $fh;
	return defined $s ? $s : '';
}

# The rows of the table: "| `id` | ... | checked by |".
my (%row, %must_use);
for my $line (split /\n/, slurp($doc_f) // die "cannot read $doc_f\n") {
	next unless $line =~ /^\|\s*`([a-z0-9][a-z0-9-]*)`\s*\|/;
	my $id = $1;
	$row{$id} = 1;
	$must_use{$id} = 1 if $line =~ /progs_upstream_diff/;
}

my (@rules, %case_row, $fails);
$fails = 0;
sub failure { print "FAIL: @_\n"; $fails++; }

open(my $rf, '<', $rules_f) or die "cannot read $rules_f\n";
while (my $l = <$rf>) {
	chomp $l;
	next if $l =~ /^\s*(#|$)/;
	my ($id, $target, $prog, $stream, $code) = split ' ', $l, 5;
	unless ($target && $target =~ /^(ours|ref|2\.75|2\.78|case)$/) {
		failure("$rules_f: bad line: $l");
		next;
	}
	failure("$rules_f: row '$id' is not in $doc_f") unless $row{$id};
	if ($target eq 'case') {
		$case_row{"$id $prog"} = 1;
		next;
	}
	my $fn = eval "sub { local \$_ = shift; $code; return \$_; }";
	unless ($fn) {
		failure("$rules_f: row '$id': $@");
		next;
	}
	push @rules, { id => $id, target => $target, prog => $prog,
		       stream => $stream, fn => $fn };
}
close $rf;

my (%used, %count);

# apply TARGET PROG \%OUT: runs TARGET's rules on the streams in place,
# returns the ids of the rules that changed something.
sub apply {
	my ($target, $prog, $o) = @_;
	my @ids;
	for my $r (@rules) {
		next unless $r->{target} eq $target;
		next unless $r->{prog} eq '*' || $r->{prog} eq $prog;
		for my $s ($r->{stream} eq '-' ? ('out', 'err') : ($r->{stream})) {
			my $after = $r->{fn}->($o->{$s});
			if ($after ne $o->{$s}) {
				$o->{$s} = $after;
				push @ids, $r->{id};
			}
		}
	}
	return @ids;
}

# upstream_run.pl's DIR/results: "NNNN RC OUTLEN ERRLEN\n", then the
# bytes of both streams, for each case.
my %results;
sub results {
	my ($dir) = @_;
	return $results{$dir} if $results{$dir};
	my $all = slurp("$dir/results") // '';
	my %r;
	pos($all) = 0;
	while ($all =~ /\G(\d+) (\d+) (\d+) (\d+)\n/gc) {
		my ($n, $rc, $lo, $le) = ($1, $2, $3, $4);
		my $at = pos($all);
		last if $at + $lo + $le > length $all;
		$r{$n} = { rc => "$rc\n", out => substr($all, $at, $lo),
			   err => substr($all, $at + $lo, $le) };
		pos($all) = $at + $lo + $le;
	}
	return $results{$dir} = \%r;
}

sub load {
	my ($dir, $n) = @_;
	my $r = results($dir)->{$n} or return undef;
	my %o = %$r;
	# Names that differ from run to run, never from program to program.
	for my $s (qw(out err)) {
		$o{$s} =~ s/\Q$dir\E\/w/DIR/g;
		$o{$s} =~ s/PID=\d+/PID=N/g;
	}
	return \%o;
}

sub same {
	my ($a, $b) = @_;
	return $a->{out} eq $b->{out} && $a->{err} eq $b->{err} &&
	       $a->{rc} eq $b->{rc};
}

sub show {
	my ($what, $a, $b) = @_;
	for my $s (qw(rc out err)) {
		next if $a->{$s} eq $b->{$s};
		my @x = split /\n/, $a->{$s}, -1;
		my @y = split /\n/, $b->{$s}, -1;
		my $i = 0;
		$i++ while $i < @x && $i < @y && $x[$i] eq $y[$i];
		printf "    %s %s line %d: upstream [%.160s]\n", $what, $s,
		       $i + 1, $i < @x ? $x[$i] : '(end)';
		printf "    %s %s line %d: ours     [%.160s]\n", $what, $s,
		       $i + 1, $i < @y ? $y[$i] : '(end)';
	}
}

open(my $cf, '<', $cases_f) or die "cannot read $cases_f\n";
while (my $l = <$cf>) {
	chomp $l;
	my ($n, $prog, $ids, $mode, $cmd) = split /\t/, $l, 5;
	$count{total}++;
	my ($u, $o275, $o278) = (load($ours, $n), load($old, $n),
				 load($new, $n));
	unless ($u && $o275 && $o278) {
		failure("case $n ($cmd): output missing");
		next;
	}
	my @notes = $ids eq '-' ? () : split /,/, $ids;
	for my $id (@notes) {
		failure("case $n ($cmd): '#\@ $id' names no case row for $prog")
			unless $case_row{"$id $prog"} || $case_row{"$id *"};
	}

	# 2.76: where 2.75 and 2.78 agree, else what the rows make of both.
	my $ref = $o275;
	if (!same($o275, $o278)) {
		my @a = apply('2.75', $prog, $o275);
		my @b = apply('2.78', $prog, $o278);
		if (!same($o275, $o278)) {
			failure("case $n ($cmd): 2.75 and 2.78 differ and no row of $doc_f says which one 2.76 does");
			show('2.75/2.78', $o275, $o278);
			next;
		}
		$used{$_} = 1 for @a, @b;
		$count{between}++;
	}
	my %raw_u = %$u;
	my %raw_ref = %$ref;
	if (same(\%raw_ref, \%raw_u)) {
		failure("case $n ($cmd): identical to 2.76, but noted '#\@ @notes'")
			if @notes;
		$count{identical}++;
		next;
	}
	my @r = apply('ref', $prog, $ref);
	my @o = apply('ours', $prog, $u);
	if (same($ref, $u)) {
		failure("case $n ($cmd): the rows' rules explain it, but noted '#\@ @notes'")
			if @notes;
		$used{$_} = 1 for @r, @o;
		$count{listed}++;
		next;
	}
	if (@notes) {
		$used{$_} = 1 for @notes, @r, @o;
		$count{listed}++;
		next;
	}
	failure("case $n ($cmd): differs from libcap 2.76 and no row of $doc_f lists it");
	show('after the rows', $ref, $u);
}
close $cf;

for my $id (sort keys %must_use) {
	failure("row '$id' of $doc_f says this suite checks it, but no case shows it")
		unless $used{$id};
}
printf "%d cases: %d identical to libcap 2.76, %d differ only as rows of "
     . "the table list (%s), %d otherwise; 2.75 and 2.78 differ in %d\n",
       $count{total} // 0, $count{identical} // 0, $count{listed} // 0,
       join(' ', sort keys %used) || 'none',
       ($count{total} // 0) - ($count{identical} // 0) - ($count{listed} // 0),
       $count{between} // 0;
exit($fails ? 1 : 0);
