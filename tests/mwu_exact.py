# mwu_exact.py: the expected values of tests/check_runs.c, by brute force:
# every split of the ranks enumerated (mid-ranks for ties), and the
# Hodges-Lehmann change with its interval from the sorted log-ratios.
import itertools, math
def ranks(vals):
    s=sorted(vals); r={}
    i=0
    while i<len(s):
        j=i
        while j<len(s) and s[j]==s[i]: j+=1
        r[s[i]]=(i+1+j)/2; i=j
    return [r[v] for v in vals]
def exact_p(a,b):
    allv=a+b; rk=ranks(allv); n=len(allv); na=len(a)
    w=sum(rk[:na]); mean=na*(n+1)/2; obs=abs(w-mean)
    cnt=0; tot=0
    for c in itertools.combinations(range(n),na):
        tot+=1
        if abs(sum(rk[i] for i in c)-mean)>=obs-1e-9: cnt+=1
    return cnt/tot, cnt, tot
print(exact_p([1,2,3,4,5],[6,7,8,9,10]))
print(exact_p([1,2,2,3],[2,3,4,5]))
print(exact_p([10.5,11.2,10.1,12.0,11.7],[11.9,12.5,13.1,12.2,14.0]))
a=[10.5,11.2,10.1,12.0,11.7]; b=[11.9,12.5,13.1,12.2,14.0]
d=sorted(math.log(y)-math.log(x) for x in a for y in b)
m=len(d); print("hl", math.expm1((d[m//2]) if m%2 else (d[m//2-1]+d[m//2])/2), "lo", math.expm1(d[2]), "hi", math.expm1(d[m-3]))
a=[100,110,120,130]; b=[150,160,170,180]
d=sorted(math.log(y)-math.log(x) for x in a for y in b)
m=len(d); print("hl", math.expm1((d[m//2-1]+d[m//2])/2), "lo", math.expm1(d[0]), "hi", math.expm1(d[m-1]))

# ---- unequal sides and the largest exact n (issue 30), for check_runs.c
# and check_trust.c. critical(): the count c of the interval, the largest
# with P(U <= c - 1) <= alpha / 2, U enumerated over every split; the
# interval is then the c-th smallest and c-th largest ratio b/a.
def u_counts(na,nb):
    cnt={}
    for c in itertools.combinations(range(1,na+nb+1),na):
        u=sum(c)-na*(na+1)//2; cnt[u]=cnt.get(u,0)+1
    return cnt, math.comb(na+nb,na)
def critical(na,nb,alpha):
    cnt,tot=u_counts(na,nb); c=0; cum=0
    for u in range(0,na*nb+1):
        cum+=cnt.get(u,0)
        if cum/tot>alpha/2+1e-12: break
        c=u+1
    return c
def change(a,b,alpha=0.05):
    r=sorted(y/x for x in a for y in b); m=len(r)
    hl=(r[m//2] if m%2 else math.sqrt(r[m//2-1]*r[m//2]))-1
    c=critical(len(a),len(b),alpha)
    return (hl, r[c-1]-1, r[m-c]-1) if c else (hl, None, None)
def min_p(na,nb): return min(1, 2/math.comb(na+nb,na))
print("3 vs 5:", exact_p([1,2,3],[4,5,6,7,8]), exact_p([4,5,6,7,8],[1,2,3]))
print("4 vs 7:", exact_p([1,3,5,7],[2,4,6,8,9,10,11]), exact_p([2,4,6,8,9,10,11],[1,3,5,7]))
print("3 vs 5 change:", change([10,11,12],[13,14,15,16,17]), "5 vs 3:", change([13,14,15,16,17],[10,11,12]))
print("4 vs 7 change:", change([100,110,120,130],[125,135,145,155,165,175,185]))
print("critical 3,5:", critical(3,5,0.05), "4,7:", critical(4,7,0.05), "5,3:", critical(5,3,0.05))
# the CLI's runs (check_trust.c): medians 100, 101, 102 against 110..114;
# 5 runs against 2 (110..114 against 110, 111)
print("diff 3 vs 5:", exact_p([100,101,102],[110,111,112,113,114]), change([100,101,102],[110,111,112,113,114]))
print("diff 5 vs 2: min p", min_p(5,2), exact_p([110,111,112,113,114],[110,111]), change([110,111,112,113,114],[110,111]))
# 64 runs in all, the largest exact: the count of splits by rank sum, in
# integers (no ties here: A even, B odd)
def exact_p_dp(a,b):
    allv=sorted(a+b); n=len(allv); na=len(a); sa=set(a)
    w=sum(i+1 for i,v in enumerate(allv) if v in sa)
    ways=[[0]*(n*(n+1)//2+1) for _ in range(na+1)]; ways[0][0]=1
    for r in range(1,n+1):
        for j in range(min(r,na),0,-1):
            for s in range(len(ways[j])-1,r-1,-1): ways[j][s]+=ways[j-1][s-r]
    mean2=na*(n+1); obs=abs(2*w-mean2)
    hit=sum(c for s,c in enumerate(ways[na]) if abs(2*s-mean2)>=obs)
    return hit/math.comb(n,na)
def normal_p(a,b):   # no ties: no tie correction; continuity 0.5
    na,nb=len(a),len(b); allv=sorted(a+b); sa=set(a)
    w=sum(i+1 for i,v in enumerate(allv) if v in sa); u=w-na*(na+1)/2
    mu=na*nb/2; sd=math.sqrt(na*nb*(na+nb+1)/12)
    z=(abs(u-mu)-0.5)/sd
    return 1 if z<=0 else math.erfc(z/math.sqrt(2))
a32=[100+2*i for i in range(32)]; b32=[111+2*i for i in range(32)]
a33=[100+2*i for i in range(33)]; b33=[111+2*i for i in range(33)]
print("32 a side exact: %.17g, its normal approximation %.17g" % (exact_p_dp(a32,b32), normal_p(a32,b32)))
print("33 a side normal: %.17g" % normal_p(a33,b33))
a30=[100+2*i for i in range(30)]; b40=[111+2*i for i in range(40)]
print("30 against 40, normal: %.17g; 40 against 30: %.17g" % (normal_p(a30,b40), normal_p(b40,a30)))
