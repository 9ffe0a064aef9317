Puppet::Functions.create_function(:pick_role) do
  dispatch :main do
    param 'String', :name
  end

  def main(name)
    scope = closure_scope
    scope['picked'] = name
    call_function('include', "mymod::#{name}")
  end
end
