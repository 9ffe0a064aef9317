# Calls back into the compile: a variable and a function.
Puppet::Functions.create_function(:'hatch::ask') do
  dispatch :ask do
    param 'String', :var
    param 'String', :fn
    repeated_param 'Any', :args
  end

  def ask(var, fn, *args)
    scope = closure_scope
    [scope[var], scope.exist?(var), call_function(fn, *args)]
  end
end
