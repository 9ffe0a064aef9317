# Renders an ERB template the way Puppet 7 does, for differential tests of
# package erb. Usage: ruby render-ruby.rb TEMPLATE CASE.json
#
# CASE.json holds {"vars": {...}, "functions": [{"name": n, "args": [...],
# "result": r}, ...]}. Variables become instance variables and are visible
# through a stub of Puppet's scope; functions answer with canned results.
# The output goes to stdout; a failure prints "ERROR" and the exception
# class to stdout and exits 1.
require 'erb'
require 'json'
require 'yaml'
require 'zlib' # Puppet has loaded it; shellwords it has not
require 'fast_gettext/vendor/string' # Puppet's String#% leaves a format with a missing %{key} alone


# StubScope answers the scope methods templates call.
class StubScope
  def initialize(vars, functions)
    @vars = vars
    @functions = functions
  end

  def lookupvar(name)
    @vars[name.sub(/\A::/, '')]
  end

  def [](name)
    lookupvar(name)
  end

  # Like Puppet's Scope#to_hash: no undef values. Sorted by name, as the
  # Go test scope cannot keep JSON order here.
  def to_hash
    @vars.reject { |_, v| v.nil? }.sort.to_h
  end

  def setvar(name, value)
    @vars[name] = value
  end

  def include?(name)
    @vars.key?(name.sub(/\A::/, ''))
  end

  # Stand-ins for common Puppet functions; ruby_test.go has the same ones.
  def builtin(name, args)
    case name
    when 'versioncmp'
      a, b = args.map { |v| v.to_s.split(/[^0-9A-Za-z]+/) }
      a.zip(b).each do |x, y|
        return 1 if y.nil?
        c = x =~ /\A\d+\z/ && y =~ /\A\d+\z/ ? x.to_i <=> y.to_i : x <=> y
        return c unless c.zero?
      end
      a.size < b.size ? -1 : 0
    when 'warning', 'notice', 'debug', 'info', 'err'
      nil
    when 'template'
      "[template #{args.join(',')}]\n"
    when 'apache::bool2httpd'
      args[0] == true ? 'On' : args[0] == false || args[0].nil? ? 'Off' : args[0]
    when 'memcached::max_memory', 'str'
      args[0]
    else
      :none
    end
  end

  def call_function(name, args)
    r = builtin(name, args)
    return r unless r == :none
    f = @functions.find { |x| x['name'] == name && x['args'] == args }
    raise ArgumentError, "no canned result for #{name}(#{args.inspect})" unless f
    raise f['error'] if f['error']
    f['result']
  end

  def method_missing(name, *args)
    if name.to_s.start_with?('function_')
      call_function(name.to_s.sub('function_', ''), args[0])
    else
      super
    end
  end

  def respond_to_missing?(name, include_private = false)
    name.to_s.start_with?('function_') || super
  end
end

# Wrapper plays Puppet's TemplateWrapper: the template's self.
class Wrapper
  def initialize(vars, functions)
    @__scope__ = StubScope.new(vars, functions)
    # Puppet's TemplateWrapper sets no instance variable for undef values.
    vars.each { |k, v| instance_variable_set("@#{k}", v) if k =~ /\A[a-z_]\w*\z/ && !v.nil? }
  end

  def scope
    @__scope__
  end

  def has_variable?(name)
    scope.include?(name)
  end

  def render(src, name)
    erb = ERB.new(src, trim_mode: '-')
    erb.filename = name
    erb.result(binding)
  end
end

tmpl, case_file = ARGV
data = JSON.parse(File.read(case_file))
vars = data['vars'] || {}
src = File.read(tmpl)
begin
  $stdout.write(Wrapper.new(vars, data['functions'] || []).render(src, tmpl))
rescue StandardError, ScriptError => e
  $stdout.write("ERROR #{e.class}\n")
  $stderr.puts "#{e.class}: #{e.message} at #{e.backtrace.find { |l| l.start_with?(tmpl) }}"
  exit 1
end
