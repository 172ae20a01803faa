#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Applies rows of docs/differences.md to saved output, for the suites that
# compare with Debian's libcap 2.66 (getcap_diff.sh, capsh_diff.sh, ...):
#
#   perl tests/tools/rows.pl 2.66 PROGRAM STREAM FILE...
#       FILE is 2.66's output: make it 2.76's where the two differ
#       (libcap266.rules, target 2.66), then take out what the table
#       says 2.76 prints and we do not (upstream.rules, target ref)
#   perl tests/tools/rows.pl ours PROGRAM STREAM FILE...
#       FILE is ours: undo our deliberate differences and additions
#       (upstream.rules and libcap266.rules, target ours)
#
# so that both sides can then be compared byte for byte. STREAM is out or
# err. Files are rewritten in place. Every rule's id must be a row of
# docs/differences.md (exit 2 otherwise). Rule lines: see
# tests/tools/upstream_compare.pl.
use strict;
use warnings;
use File::Basename qw(dirname);

my ($side, $prog, $stream, @files) = @ARGV;
die "usage: $0 2.66|ours PROGRAM out|err FILE...\n"
	unless @files && $side =~ /^(2\.66|ours)$/ && $stream =~ /^(out|err)$/;
my $tools = dirname($0);
my $doc = "$tools/../../docs/differences.md";

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "$0: $f: $!\n";
	local $/;
	my $s = <$fh> // '';
	close $fh;
	return $s;
}

my %row;
for (split /\n/, slurp($doc)) {
	$row{$1} = 1 if /^\|\s*`([a-z0-9][a-z0-9-]*)`\s*\|/;
}

# Which (file, target) pairs apply, in order.
my @passes = $side eq '2.66'
	? (['libcap266.rules', '2.66'], ['upstream.rules', 'ref'])
	: (['upstream.rules', 'ours'], ['libcap266.rules', 'ours']);
my @code;
for my $p (@passes) {
	my ($file, $target) = @$p;
	for my $l (split /\n/, slurp("$tools/$file")) {
		next if $l =~ /^\s*(#|$)/;
		my ($id, $t, $pr, $st, $c) = split ' ', $l, 5;
		unless ($row{$id}) {
			print STDERR "$0: $file: row '$id' is not in docs/differences.md\n";
			exit 2;
		}
		next unless $t eq $target;
		next unless $pr eq '*' || $pr eq $prog;
		next unless $st eq '-' || $st eq $stream;
		my $fn = eval "sub { local \$_ = shift; $c; return \$_; }"
			or die "$0: $file: row '$id': $@";
		push @code, $fn;
	}
}
for my $f (@files) {
	my $s = slurp($f);
	$s = $_->($s) for @code;
	open(my $fh, '>', $f) or die "$0: $f: $!\n";
	print $fh $s;
	close $fh or die "$0: $f: $!\n";
}
