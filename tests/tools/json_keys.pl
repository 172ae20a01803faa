#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The JSON keys a program can print, read from its sources, one a line:
#
#   perl tests/tools/json_keys.pl TOP PROGRAM
#
# reads progs/PROGRAM/*.c and the common/*.c functions they call. A key is
#   - a name in a C string literal written as "\"name\":", in any file of
#     the program or in a common/ function it calls (json_object_open()'s
#     "schema", json_vector()'s "hex" and "names");
#   - the string literal given to a key writer, a function with a
#     parameter "const char *key" (json_path(), json_vector(), a program's
#     own helper), combined with each "\"%s...\":" its body writes:
#     json_path(out, "comm", ...) gives comm and comm_hex;
#   - what a common/ function writes through key writers of its own
#     (json_capset()'s effective, permitted, inheritable).
# A literal written only inside "if (PARAM != NULL) {" counts only for
# callers that pass PARAM something other than NULL (json_object_open()'s
# "type"). A key writer given anything but a string literal (or, inside
# another key writer, its own key) is an error: its keys could not be
# listed, so nothing could check that they are documented. Exits 1 then,
# and when PROGRAM has no sources.
use strict;
use warnings;

my ($top, $prog) = @ARGV;
die "usage: $0 TOP PROGRAM\n" unless defined $prog;
my @prog_files = sort glob("$top/progs/$prog/*.c");
die "json_keys: no sources in $top/progs/$prog\n" unless @prog_files;
my @common_files = sort glob("$top/common/*.c");

my $NAME = qr/[a-z_][a-z0-9_]*/;
my $errors = 0;
my (%fn, @prog_fns);	# functions by name; the program's, in file order

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "json_keys: cannot read $f: $!\n";
	local $/;
	my $s = <$fh>;
	close $fh;
	# Comments say what a line looks like ("\"user\":null") without
	# printing it: only code counts.
	$s =~ s{/\*.*?\*/}{ }gs;
	$s =~ s{//[^\n]*}{}g;
	return $s;
}

# Every function defined at the top level of a file, as the project lays
# them out: the name and parameters, then "{" and "}" alone in column 0.
sub functions_of {
	my ($src) = @_;
	my @fns;
	while ($src =~ /^(?:[A-Za-z_][\w \t\*]*?[\s\*])?(\w+)\(([^;{}]*?)\)\s*\n\{\n(.*?)^\}/msg) {
		push @fns, { name => $1, params => $2, body => $3 };
	}
	return @fns;
}

# The arguments of each call of NAME in SRC: a list of argument lists.
sub calls_of {
	my ($src, $name) = @_;
	my @calls;
	while ($src =~ /\b\Q$name\E\s*\(/g) {
		my $pos = pos($src);
		my ($depth, $arg, @args, $in_str) = (1, '');
		while ($pos < length($src) && $depth > 0) {
			my $c = substr($src, $pos++, 1);
			if ($in_str) {
				$arg .= $c;
				if ($c eq '\\') { $arg .= substr($src, $pos++, 1); next; }
				$in_str = 0 if $c eq '"';
				next;
			}
			if ($c eq '"') { $in_str = 1; $arg .= $c; next; }
			$depth++ if $c eq '(';
			$depth-- if $c eq ')';
			if ($depth == 0 || ($depth == 1 && $c eq ',')) {
				$arg =~ s/^\s+|\s+$//g;
				push @args, $arg;
				$arg = '';
				next;
			}
			$arg .= $c;
		}
		push @calls, [@args];
	}
	return @calls;
}

# Literal keys ("\"name\":") in a piece of code.
sub literal_keys {
	my ($code) = @_;
	my @k;
	push @k, $1 while $code =~ /\\"($NAME)\\":/g;
	return @k;
}

# Key templates ("\"%s_hex\":" gives "_hex") of a key writer: in its
# body, and those of the key writers it passes its key on to.
sub templates {
	my ($g, $seen) = @_;
	return @{$g->{templates}} if $g->{templates};
	my (@t, %named);
	push @t, $1 while $g->{body} =~ /\\"%s([a-z0-9_]*)\\":/g;
	$named{$1} = 1 while $g->{body} =~ /\b(\w+)\s*\(/g;
	for my $name (sort keys %named) {
		my $h = $fn{$name};
		next if !$h || !defined $h->{key_arg} || $h == $g || $seen->{$name}++;
		for my $args (calls_of($g->{body}, $name)) {
			push @t, templates($h, $seen)
				if ($args->[$h->{key_arg}] // '') eq 'key';
		}
	}
	return @t;
}

# Parts of a body written only when PARAM is not NULL.
sub guarded {
	my ($body, $param) = @_;
	my @parts;
	push @parts, $2 while $body =~ /^(\t+)if \(\Q$param\E != NULL\) \{\n(.*?)^\1\}/msg;
	return @parts;
}

# Every function of common/ and of the program; a program's own function
# hides a common/ one of the same name, as a static one does.
for my $f (@common_files, @prog_files) {
	for my $g (functions_of(slurp($f))) {
		$g->{file} = $f;
		my @params = split /\s*,\s*/, $g->{params};
		for my $i (0 .. $#params) {
			$g->{key_arg} = $i if $params[$i] =~ /^const char \*key$/;
			$g->{ptr_params}{$1} = $i if $params[$i] =~ /\*\s*(\w+)$/;
		}
		$fn{$g->{name}} = $g unless $f =~ m{/progs/} && exists $fn{$g->{name}}
			&& $fn{$g->{name}}{file} =~ m{/progs/};
		push @prog_fns, $g if $f =~ m{/progs/\Q$prog\E/};
	}
}

# A "const char *key" parameter makes a key writer only where the key is
# written: a template in the body, or passed on to a key writer.
for (my $changed = 1; $changed;) {
	$changed = 0;
	for my $g (values %fn) {
		next if !defined $g->{key_arg} || templates($g, {});
		delete $g->{key_arg};
		$changed = 1;
	}
}
for my $g (values %fn) {
	$g->{templates} = [templates($g, {})] if defined $g->{key_arg};
}

# What one call of a function writes: its keys given ARGS.
my %busy;
sub keys_of_call {
	my ($g, $args, $where) = @_;
	my %k;
	my $body = $g->{body};
	# Literals guarded by a pointer parameter that this call passes NULL.
	for my $p (keys %{$g->{ptr_params} // {}}) {
		my $i = $g->{ptr_params}{$p};
		next unless defined $args->[$i] && $args->[$i] eq 'NULL';
		$body =~ s/\Q$_\E//g for guarded($body, $p);
	}
	$k{$_} = 1 for literal_keys($body);
	if (defined $g->{key_arg}) {
		my $a = $args->[$g->{key_arg}] // '';
		if ($a =~ /^"($NAME)"$/) {
			$k{$1 . $_} = 1 for templates($g, {});
		} else {
			print STDERR "json_keys: $where: $g->{name}() is given the key $a, not a literal\n";
			$errors++;
		}
	}
	return (%k, keys_called($body, $g->{name}));
}

# The keys written by the functions CODE calls (their literal arguments).
sub keys_called {
	my ($code, $inside) = @_;
	my (%k, %named);
	$named{$1} = 1 while $code =~ /\b(\w+)\s*\(/g;
	for my $name (sort keys %named) {
		my $g = $fn{$name} or next;
		next if $name eq $inside || $busy{$name};
		# The program's own functions are read where they are defined;
		# key writers are read at each call, common/ ones too.
		next if $g->{file} =~ m{/progs/} && !defined $g->{key_arg};
		local $busy{$name} = 1;
		for my $args (calls_of($code, $name)) {
			# A key writer passing its own key on: its caller's literal
			# is read at that caller's call.
			next if defined $g->{key_arg} && ($args->[$g->{key_arg}] // '') eq 'key';
			my %got = keys_of_call($g, $args, "$inside()");
			@k{keys %got} = values %got;
		}
	}
	return %k;
}

my %keys;
for my $g (@prog_fns) {
	next if defined $g->{key_arg};
	my %k = (map({ $_ => 1 } literal_keys($g->{body})), keys_called($g->{body}, $g->{name}));
	@keys{keys %k} = values %k;
}
print "$_\n" for sort keys %keys;
exit($errors ? 1 : 0);
